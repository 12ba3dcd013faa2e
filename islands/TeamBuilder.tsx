import { useCallback, useEffect, useMemo, useState } from "react";
import { checkTeamComplete, rulesOf } from "@/lib/domain/team_rules.ts";
import { type BuilderCompetition, BuilderHeader } from "@/components/team/BuilderHeader.tsx";
import { PickingArea } from "@/components/team/PickingArea.tsx";
import { track } from "@/lib/client/analytics.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { saveSelection } from "@/lib/client/selection.ts";
import { missingCaptain } from "@/lib/domain/captain.ts";
import { toast } from "@/lib/client/toast.ts";
import { captainsOf, useTeam } from "@/lib/client/use_team.ts";
import { closedForEntries } from "@/lib/client/contests.ts";
import { TeamPlayerList } from "@/components/team/TeamPlayerList.tsx";

/** After the deadline: every player with the share of entries that picked them, most first. */
function MostPicked(
  { players, ownership }: { players: PickPlayer[]; ownership: Record<number, number> },
) {
  const sorted = [...players].sort((a, b) =>
    (ownership[b.id] ?? 0) - (ownership[a.id] ?? 0) || a.name.localeCompare(b.name)
  );
  return (
    <section aria-labelledby="most-picked" className="grid gap-3" data-most-picked="">
      <h2 id="most-picked" className="text-lg font-semibold">Who picked whom</h2>
      <TeamPlayerList players={sorted} ownership={ownership} />
    </section>
  );
}

export interface TeamBuilderProps {
  /** The competition and its players, as the page rendered them. */
  competition: BuilderCompetition;
  players: PickPlayer[];
  renderedAt: string;
  /** Why no valid team can be built from the competition's players yet; null when one can. */
  missing?: string | null;
  /** Share of entries that picked each player once teams are locked (the read-only view). */
  ownership?: Record<number, number> | null;
}

/** Team selection: pick 5 players under the rules, then go to payment. */
export default function TeamBuilder(
  { competition, players, renderedAt, missing = null, ownership = null }: TeamBuilderProps,
) {
  const rules = useMemo(() => rulesOf(competition), [competition]);
  const team = useTeam(competition.id, players, rules);
  const [closed, setClosed] = useState(() =>
    closedForEntries(competition, new Date(renderedAt).getTime())
  );
  const onExpire = useCallback(() => setClosed(closedForEntries(competition, Date.now())), [
    competition,
  ]);

  useEffect(() => {
    setClosed(closedForEntries(competition, Date.now()));
    track("view_competition", { competitionId: competition.id });
  }, [competition.id]);

  const submit = () => {
    const violation = checkTeamComplete(team.selected, rules);
    if (violation) {
      toast({ title: violation.title, description: violation.message, variant: "destructive" });
      return;
    }
    const noCaptain = missingCaptain(competition, team.captainId, team.viceCaptainId);
    if (noCaptain) {
      toast({ title: "Choose your captains", description: noCaptain, variant: "destructive" });
      return;
    }
    const ids = team.selected.map((p) => p.id);
    saveSelection(competition.id, ids, captainsOf(team));
    track("complete_team_selection", { competitionId: competition.id });
    location.assign(`/payment/${competition.id}`);
  };

  return (
    <div className="grid grid-cols-1 gap-6 pb-28">
      <BuilderHeader
        competition={competition}
        rules={rules}
        renderedAt={renderedAt}
        onExpire={onExpire}
      />
      {closed && (
        <div
          role="alert"
          className="rounded-xl border border-destructive/40 bg-destructive/10 p-4 text-sm"
          data-closed=""
        >
          <p className="font-semibold text-destructive">This competition is closed for entries.</p>
          <p className="mt-1 text-muted-foreground">
            {closed}{" "}
            <a
              href={`/leaderboard/${competition.id}`}
              className="font-medium text-foreground underline"
            >
              View the leaderboard
            </a>
          </p>
        </div>
      )}
      {closed && ownership && <MostPicked players={players} ownership={ownership} />}
      {!closed && missing && players && players.length > 0 && (
        <div role="status" className="rounded-xl border border-border bg-muted/60 p-4 text-sm">
          <p className="font-semibold">Entries open once the team can be completed.</p>
          <p className="mt-1 text-muted-foreground" data-missing="">{missing}</p>
        </div>
      )}
      {!closed && (
        <PickingArea
          competition={competition}
          players={players}
          picks={team}
          salaryCap={rules.salaryCap}
          missing={missing}
          closed={missing !== null}
          onSubmit={submit}
        />
      )}
    </div>
  );
}
