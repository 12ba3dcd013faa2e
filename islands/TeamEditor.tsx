import { useCallback, useMemo, useState } from "react";
import { checkTeamComplete, rulesOf } from "@/lib/domain/team_rules.ts";
import { type BuilderCompetition, BuilderHeader } from "@/components/team/BuilderHeader.tsx";
import { PickingArea } from "@/components/team/PickingArea.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { ApiError } from "@/lib/client/api.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { saveTeam } from "@/lib/client/team_edit.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import { captainsOf, useTeam } from "@/lib/client/use_team.ts";
import { missingCaptain } from "@/lib/domain/captain.ts";
import { usePickLocks } from "@/lib/client/use_pick_locks.ts";

export interface TeamEditorProps {
  /** The secret of the entry's edit link. */
  token: string;
  competition: BuilderCompetition;
  players: PickPlayer[];
  renderedAt: string;
  team: {
    teamId: string;
    teamName: string;
    playerIds: number[];
    revision: number;
    captainId?: number | null;
    viceCaptainId?: number | null;
  };
}

const UNEXPECTED = "Your team could not be saved. Please try again.";

/** Changing a paid team until the deadline: the builder, started from the saved team. */
export default function TeamEditor(
  { token, competition, players, renderedAt, team }: TeamEditorProps,
) {
  const rules = useMemo(() => rulesOf(competition), [competition]);
  const picks = useTeam(competition.id, players, rules, team.playerIds, {
    captainId: team.captainId ?? null,
    viceCaptainId: team.viceCaptainId ?? null,
  });
  const [teamName, setTeamName] = useState(team.teamName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [revision, setRevision] = useState(team.revision);
  const [busy, setBusy] = useState(false);
  const [locked, setLocked] = useState<string | null>(null);
  const lateSwap = competition.lateSwap === true;
  const locks = usePickLocks(lateSwap ? competition.fixtures : null, players, renderedAt);
  const onExpire = useCallback(() => {
    // With late swap the deadline locks nothing by itself: each pick locks at its kick-off.
    if (!lateSwap) setLocked("The deadline has passed: this team is locked.");
  }, [lateSwap]);
  /** A locked player is neither taken out nor brought in: the server would refuse it too. */
  const guard = (act: (player: PickPlayer) => void) => (player: PickPlayer) => {
    const refusal = locks?.lockedMessage(player);
    if (refusal) {
      toast({ title: "Locked", description: refusal, variant: "destructive" });
      return;
    }
    act(player);
  };
  const guarded = locks
    ? { ...picks, toggle: guard(picks.toggle), remove: guard(picks.remove) }
    : picks;

  const save = async () => {
    const violation = checkTeamComplete(picks.selected, rules);
    if (violation) {
      toast({ title: violation.title, description: violation.message, variant: "destructive" });
      return;
    }
    const noCaptain = missingCaptain(competition, picks.captainId, picks.viceCaptainId);
    if (noCaptain) {
      toast({ title: "Choose your captains", description: noCaptain, variant: "destructive" });
      return;
    }
    setBusy(true);
    try {
      const saved = await saveTeam(token, {
        teamName: teamName.trim(),
        playerIds: picks.selected.map((p) => p.id),
        revision,
        ...captainsOf(picks),
      });
      setRevision(saved.revision);
      setNameError(null);
      const until = formatWhen(competition.deadline) || "the deadline";
      toast({
        title: "Team saved",
        description: lateSwap
          ? "Each pick can change until its match kicks off."
          : `You can change it again until ${until}.`,
      });
    } catch (err) {
      saveFailed(err, setNameError, setLocked);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid grid-cols-1 gap-6 pb-28">
      <BuilderHeader
        competition={competition}
        rules={rules}
        renderedAt={renderedAt}
        onExpire={onExpire}
      />
      <section className="grid gap-3 rounded-xl border border-border bg-card p-4 shadow-sm sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="grid gap-1.5">
          <Label htmlFor="edit-team-name">Display name</Label>
          <Input
            id="edit-team-name"
            value={teamName}
            maxLength={30}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "edit-team-name-error" : undefined}
            onInput={(e) => setTeamName((e.target as HTMLInputElement).value)}
          />
          {nameError && (
            <p id="edit-team-name-error" className="text-sm text-destructive">{nameError}</p>
          )}
        </div>
        <p className="text-sm text-muted-foreground">
          Team ID <span className="font-mono font-semibold text-foreground">{team.teamId}</span>
        </p>
      </section>
      {locked && (
        <div
          role="alert"
          className="rounded-xl border border-destructive/40 bg-destructive/10 p-4 text-sm"
          data-locked=""
        >
          <p className="font-semibold text-destructive">{locked}</p>
          <p className="mt-1 text-muted-foreground">
            Your last saved team stays in.{" "}
            <a href={`/leaderboard/${competition.id}`} className="font-medium underline">
              View the leaderboard
            </a>
          </p>
        </div>
      )}
      <PickingArea
        competition={competition}
        players={players}
        picks={guarded}
        salaryCap={rules.salaryCap}
        lockedIds={locks?.lockedIds ?? null}
        lockTimes={locks?.lockTimes ?? null}
        missing={null}
        closed={locked !== null}
        busy={busy}
        label="Save Changes"
        onSubmit={save}
      />
    </div>
  );
}

/** A refused save: a name problem goes under the field, a lock disables saving, the rest toasts. */
function saveFailed(
  err: unknown,
  setNameError: (message: string | null) => void,
  setLocked: (message: string) => void,
) {
  if (!(err instanceof ApiError)) return toastError(UNEXPECTED);
  const nameIssue = err.issues.find((issue) => issue.path[0] === "teamName");
  if (nameIssue) return setNameError(nameIssue.message);
  const message = err.serverMessage ?? UNEXPECTED;
  if (err.status === 409 && message.endsWith("this team is locked.")) setLocked(message);
  toastError(message);
}
