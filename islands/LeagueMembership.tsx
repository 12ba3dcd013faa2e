import { useEffect, useState } from "react";
import { InviteLink } from "@/components/InviteLink.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { apiFetch } from "@/lib/client/api.ts";
import {
  askJoinCode,
  forgetLeague,
  getUserLeagues,
  joinLeague,
  LEAGUE_BOARD,
  LEAGUE_CHANGED,
  type LeagueBoardAnswer,
  leagueError,
  leaveLeague,
  rememberLeague,
} from "@/lib/client/leagues.ts";
import { getUserEntries } from "@/lib/client/user_entries.ts";
import type { EntrySummary } from "@/lib/domain/live.ts";

export interface LeagueMembershipProps {
  leagueId: string;
  leagueName: string;
  competitionId: number;
  inviteUrl: string;
  /** Team IDs of the members on the board when the page was made, and how many members. */
  memberTeamIds: string[];
  memberCount: number;
  maxMembers: number;
}

/** One of this browser's entries in this competition, and how it may act in the league. */
interface Own {
  teamId: string;
  name: string;
  editToken?: string;
  memberToken?: string;
}

type Note = { kind: "ok" | "error"; text: string } | null;

function Message({ note }: { note: Note }) {
  if (!note) return null;
  return (
    <p
      role={note.kind === "error" ? "alert" : "status"}
      className={note.kind === "error" ? "text-sm text-destructive" : "text-sm text-success"}
      data-league-note={note.kind}
    >
      {note.text}
    </p>
  );
}

/** This browser's entries of the competition, with their names (one call; names are public). */
async function loadOwn(leagueId: string, competitionId: number): Promise<Own[]> {
  const tokens = getUserLeagues().find((l) => l.id === leagueId)?.memberTokens ?? {};
  const mine = getUserEntries().filter((e) => e.competitionId === competitionId);
  const ids = [...new Set([...mine.map((e) => e.teamId), ...Object.keys(tokens)])].slice(0, 100);
  if (ids.length === 0) return [];
  const summaries = await apiFetch<EntrySummary[]>(
    `/api/my-entries?teamIds=${encodeURIComponent(ids.join(","))}`,
  );
  return summaries
    .filter((s) => s.competition.id === competitionId)
    .map((s) => ({
      teamId: s.teamId,
      name: s.displayName,
      editToken: mine.find((e) => e.teamId === s.teamId)?.editToken,
      memberToken: tokens[s.teamId],
    }));
}

/**
 * The league page's controls: copy the invite link; add one of this browser's entries (its edit
 * secret proves it), or any entry by team ID and a code e-mailed to its address; leave again.
 */
export default function LeagueMembership(props: LeagueMembershipProps) {
  const { leagueId, competitionId } = props;
  const [own, setOwn] = useState<Own[] | null>(null);
  const [members, setMembers] = useState(() => new Set(props.memberTeamIds));
  const [count, setCount] = useState(props.memberCount);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const [teamId, setTeamId] = useState("");
  const [codeSentFor, setCodeSentFor] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [chosen, setChosen] = useState("");

  useEffect(() => {
    loadOwn(leagueId, competitionId).then(setOwn).catch(() => setOwn([]));
  }, [leagueId, competitionId]);

  useEffect(() => {
    // The board's own reads keep the count and the members current (others join and leave too).
    const onBoard = (event: Event) => {
      const board = (event as CustomEvent<LeagueBoardAnswer>).detail;
      setCount(board.league.memberCount);
      setMembers(new Set(board.rows.map((row) => row.teamId)));
    };
    addEventListener(LEAGUE_BOARD, onBoard);
    return () => removeEventListener(LEAGUE_BOARD, onBoard);
  }, []);

  const league = { id: leagueId, name: props.leagueName, competitionId };
  const changed = (id: string, joined: boolean) => {
    setCount((n) => Math.max(0, n + (joined ? 1 : -1)));
    setMembers((prev) => {
      const next = new Set(prev);
      if (joined) next.add(id);
      else next.delete(id);
      return next;
    });
    dispatchEvent(new Event(LEAGUE_CHANGED));
  };
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setNote(null);
    try {
      setNote({ kind: "ok", text: await work() });
    } catch (err) {
      setNote({ kind: "error", text: leagueError(err) });
    } finally {
      setBusy(false);
    }
  };

  const addable = (own ?? []).filter((o) => o.editToken && !members.has(o.teamId));
  const leavable = (own ?? []).filter((o) =>
    members.has(o.teamId) && (o.editToken || o.memberToken)
  );
  const pick = addable.find((o) => o.teamId === chosen) ?? addable[0];

  const addOwn = () =>
    pick && run(async () => {
      await joinLeague(leagueId, { teamId: pick.teamId, editToken: pick.editToken });
      rememberLeague(league);
      changed(pick.teamId, true);
      return `${pick.name} joined ${props.leagueName}.`;
    });
  const askCode = (e: Event) => {
    e.preventDefault();
    const id = teamId.trim();
    run(async () => {
      const message = await askJoinCode(leagueId, id);
      setCodeSentFor(id);
      return message;
    });
  };
  const joinWithCode = (e: Event) => {
    e.preventDefault();
    const id = codeSentFor!;
    run(async () => {
      const answer = await joinLeague(leagueId, { teamId: id, code: code.trim() });
      rememberLeague(league, { teamId: id, memberToken: answer.memberToken! });
      setOwn(await loadOwn(leagueId, competitionId).catch(() => own));
      setCodeSentFor(null);
      setCode("");
      setTeamId("");
      changed(id, true);
      return `${id} joined ${props.leagueName}.`;
    });
  };
  const leave = (o: Own) =>
    run(async () => {
      await leaveLeague(leagueId, {
        teamId: o.teamId,
        ...(o.editToken ? { editToken: o.editToken } : { memberToken: o.memberToken }),
      });
      changed(o.teamId, false);
      if (!leavable.some((other) => other.teamId !== o.teamId)) forgetLeague(leagueId);
      return `${o.name} left ${props.leagueName}.`;
    });
  return (
    <section
      aria-labelledby="league-membership"
      className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
      data-league-membership=""
    >
      <h2 id="league-membership" className="sr-only">Join or leave</h2>
      <p className="text-sm text-muted-foreground" data-member-count={count}>
        {count} of {props.maxMembers}{" "}
        members · Ranked by contest points; no money moves in a league.
      </p>
      <InviteLink id="invite-link" url={props.inviteUrl} />

      {own === null
        ? (
          <p className="text-sm text-muted-foreground" data-league-loading="">
            Loading your entries…
          </p>
        )
        : (
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <h3 className="text-sm font-semibold">Your entries here</h3>
              {addable.length > 0
                ? (
                  <div className="flex flex-wrap gap-2">
                    {addable.length > 1 && (
                      <select
                        aria-label="Entry to add"
                        className="h-10 rounded-md border border-border bg-background px-2 text-sm"
                        value={pick?.teamId}
                        onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}
                      >
                        {addable.map((o) => (
                          <option key={o.teamId} value={o.teamId}>{o.name} ({o.teamId})</option>
                        ))}
                      </select>
                    )}
                    <Button onClick={addOwn} disabled={busy} data-add-own="">
                      {addable.length > 1 ? "Add to league" : `Add ${pick!.name}`}
                    </Button>
                  </div>
                )
                : leavable.length === 0 && (
                  <p className="text-sm text-muted-foreground" data-no-own="">
                    This browser holds no entry of this contest that can join. Add one by team ID
                    below.
                  </p>
                )}
              {leavable.length > 0 && (
                <ul className="grid gap-2">
                  {leavable.map((o) => (
                    <li key={o.teamId} className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="font-medium">{o.name}</span>
                      <span className="font-mono text-xs text-muted-foreground">{o.teamId}</span>
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() =>
                          leave(o)}
                        disabled={busy}
                        aria-label={`Leave the league with ${o.name}`}
                      >
                        Leave
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="grid content-start gap-2">
              <h3 className="text-sm font-semibold">Add an entry by team ID</h3>
              {codeSentFor === null
                ? (
                  <form className="flex flex-wrap gap-2" onSubmit={askCode}>
                    <Label htmlFor="league-team-id" className="sr-only">Team ID</Label>
                    <Input
                      id="league-team-id"
                      required
                      maxLength={40}
                      placeholder="Team ID, e.g. FFT-ABCD1234"
                      value={teamId}
                      onInput={(e) => setTeamId((e.target as HTMLInputElement).value)}
                      className="min-w-0 flex-1 font-mono"
                    />
                    <Button type="submit" variant="outline" disabled={busy || !teamId.trim()}>
                      E-mail me a code
                    </Button>
                  </form>
                )
                : (
                  <form className="flex flex-wrap gap-2" onSubmit={joinWithCode}>
                    <Label htmlFor="league-code" className="sr-only">
                      6-digit code for {codeSentFor}
                    </Label>
                    <Input
                      id="league-code"
                      required
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      pattern="\d{6}"
                      maxLength={6}
                      placeholder="6-digit code"
                      value={code}
                      onInput={(e) => setCode((e.target as HTMLInputElement).value)}
                      className="w-36 font-mono"
                    />
                    <Button type="submit" disabled={busy || code.trim().length !== 6}>
                      Join with code
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      onClick={() => setCodeSentFor(null)}
                      disabled={busy}
                    >
                      Use another team ID
                    </Button>
                  </form>
                )}
              <p className="text-xs text-muted-foreground">
                The code goes to the e-mail address of that entry.
              </p>
            </div>
          </div>
        )}
      <Message note={note} />
    </section>
  );
}
