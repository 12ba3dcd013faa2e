import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { InviteLink } from "@/components/InviteLink.tsx";
import { YourLeagues } from "@/components/YourLeagues.tsx";
import { createLeague, leagueError, rememberLeague } from "@/lib/client/leagues.ts";
import { getUserEntries, type UserEntry } from "@/lib/client/user_entries.ts";

export interface LeagueCreateProps {
  /** The entry the league is for (`?team=`); "" lets the visitor choose among this browser's. */
  teamId: string;
}

/**
 * Names a new league for one of this browser's entries (those whose edit link it holds) and
 * shows its invite link.
 */
export default function LeagueCreate({ teamId }: LeagueCreateProps) {
  const [entries, setEntries] = useState<UserEntry[] | null>(null);
  const [chosen, setChosen] = useState(teamId);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; name: string; url: string } | null>(null);

  useEffect(() => setEntries(getUserEntries().filter((e) => e.editToken)), []);

  if (entries === null) {
    return <p className="text-sm text-muted-foreground" data-league-loading="">Loading…</p>;
  }
  const entry = entries.find((e) => e.teamId === chosen) ?? (teamId ? null : entries[0]);
  if (!entry) {
    return (
      <div
        className="rounded-xl border border-dashed border-border p-6 text-center"
        data-empty-state=""
      >
        <p className="font-semibold">
          {teamId ? `This browser does not hold the edit link of ${teamId}.` : "No entries yet"}
        </p>
        <p className="mt-2 text-sm text-muted-foreground">
          A league is created from an entry paid for in this browser, or opened from its edit link.
          Someone else's league can still be joined by team ID from its invite link.
        </p>
        <a href="/my-entries" className="mt-4 inline-block text-sm font-medium underline">
          My entries
        </a>
      </div>
    );
  }

  if (created) {
    return (
      <div className="grid gap-3 rounded-xl border border-border bg-card p-5 shadow-sm">
        <p role="status" className="font-semibold" data-league-created="">
          {created.name} is ready. Send this invite link to your friends:
        </p>
        <InviteLink id="new-invite" url={created.url} />
        <Button variant="outline" href={`/leagues/${created.id}`} className="justify-self-start">
          Open the league
        </Button>
      </div>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await createLeague({
        teamId: entry.teamId,
        editToken: entry.editToken!,
        name,
      });
      rememberLeague(answer.league);
      setCreated({ id: answer.league.id, name: answer.league.name, url: answer.inviteUrl });
    } catch (err) {
      setError(leagueError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-6">
      <form
        onSubmit={submit}
        className="grid gap-4 rounded-xl border border-border bg-card p-5 shadow-sm"
        noValidate
      >
        <div className="grid gap-2">
          <Label htmlFor="league-entry">Your entry</Label>
          <select
            id="league-entry"
            className="h-10 rounded-md border border-border bg-background px-2 text-sm"
            value={entry.teamId}
            onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}
          >
            {entries.map((e) => <option key={e.teamId} value={e.teamId}>{e.teamId}</option>)}
          </select>
          <p className="text-xs text-muted-foreground">
            The league is for this entry's contest, and the entry is its first member.
          </p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="league-name">League name</Label>
          <Input
            id="league-name"
            required
            maxLength={30}
            placeholder="e.g. Office Friends"
            value={name}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={error ? "league-error" : undefined}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
          {error && (
            <p id="league-error" role="alert" className="text-sm text-destructive">{error}</p>
          )}
        </div>
        <Button type="submit" disabled={busy} data-create-league-submit="">
          {busy ? "Creating…" : "Create league"}
        </Button>
      </form>
      <YourLeagues />
    </div>
  );
}
