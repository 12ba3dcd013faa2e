import { useCallback, useEffect, useMemo, useState } from "react";
import { checkTeamComplete, rulesOf, teamSalary } from "../lib/domain/team_rules.ts";
import { closedReason } from "@/lib/domain/competition.ts";
import { type BuilderCompetition, BuilderHeader } from "../components/team/BuilderHeader.tsx";
import { PlayerBrowser } from "../components/team/PlayerBrowser.tsx";
import { SubmitBar } from "../components/team/SubmitBar.tsx";
import { TeamPanel } from "../components/team/TeamPanel.tsx";
import { track } from "@/lib/client/analytics.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { saveSelection } from "@/lib/client/selection.ts";
import { toast } from "@/lib/client/toast.ts";
import { useTeam } from "@/lib/client/use_team.ts";

export interface TeamBuilderProps {
  /** The competition and its players, as the page rendered them. */
  competition: BuilderCompetition;
  players: PickPlayer[];
  renderedAt: string;
}

/** Team selection (SPEC §2): pick 5 players under the rules, then go to payment. */
export default function TeamBuilder({ competition, players, renderedAt }: TeamBuilderProps) {
  const rules = useMemo(() => rulesOf(competition), [competition]);
  const team = useTeam(competition.id, players, rules);
  const [closed, setClosed] = useState(() => closedReason(competition, new Date(renderedAt)));
  const open = closed === null;
  const onExpire = useCallback(
    () => setClosed(closedReason(competition, new Date(competition.deadline))),
    [competition],
  );

  useEffect(() => {
    setClosed(closedReason(competition));
    track("view_competition", { competitionId: competition.id });
  }, [competition.id]);

  const submit = () => {
    const violation = checkTeamComplete(team.selected, rules);
    if (violation) {
      toast({ title: violation.title, description: violation.message, variant: "destructive" });
      return;
    }
    const ids = team.selected.map((p) => p.id);
    saveSelection(competition.id, ids);
    track("complete_team_selection", { competitionId: competition.id });
    location.assign(`/payment/${competition.id}`);
  };

  const remaining = rules.salaryCap === null ? null : rules.salaryCap - teamSalary(team.selected);
  return (
    <div className="grid grid-cols-1 gap-6 pb-28">
      <BuilderHeader
        competition={competition}
        rules={rules}
        renderedAt={renderedAt}
        onExpire={onExpire}
      />
      {!open && (
        <div
          role="alert"
          className="rounded-xl border border-destructive/40 bg-destructive/10 p-4 text-sm"
        >
          <p className="font-semibold text-destructive">This competition is closed for entries.</p>
          <p className="mt-1 text-muted-foreground">
            {competition.status === "UPCOMING" ? closed : "Picks can no longer be submitted."}{" "}
            <a
              href={`/leaderboard/${competition.id}`}
              className="font-medium text-foreground underline"
            >
              View the leaderboard
            </a>
          </p>
        </div>
      )}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="lg:sticky lg:top-20 lg:order-2">
          <TeamPanel selected={team.selected} salaryCap={rules.salaryCap} onRemove={team.remove} />
        </div>
        <div className="min-w-0 lg:order-1">
          <PlayerBrowser players={players} selectedIds={team.selectedIds} onToggle={team.toggle} />
        </div>
      </div>
      <SubmitBar
        count={team.selected.length}
        remaining={remaining}
        closed={!open}
        onSubmit={submit}
      />
    </div>
  );
}
