import { useCallback, useEffect, useMemo, useState } from "react";
import { checkTeamComplete, rulesOf, teamSalary } from "../lib/domain/team_rules.ts";
import { type BuilderCompetition, BuilderHeader } from "../components/team/BuilderHeader.tsx";
import { PlayerBrowser } from "../components/team/PlayerBrowser.tsx";
import { SubmitBar } from "../components/team/SubmitBar.tsx";
import { TeamPanel } from "../components/team/TeamPanel.tsx";
import { StatusCard } from "../components/StatusCard.tsx";
import { Button } from "../components/ui/Button.tsx";
import { track } from "../lib/ui/analytics.ts";
import type { PickPlayer } from "../lib/ui/players.ts";
import { saveSelection } from "../lib/ui/selection.ts";
import { toast } from "../lib/ui/toast.ts";
import { useBuilderData } from "../lib/ui/use_builder_data.ts";
import { useTeam } from "../lib/ui/use_team.ts";

export interface TeamBuilderProps {
  competitionId: number;
  /** Server-rendered data; null makes the island load it from the API. */
  competition: BuilderCompetition | null;
  players: PickPlayer[] | null;
  renderedAt: string;
}

function isOpen(c: BuilderCompetition, now: number): boolean {
  return c.status === "UPCOMING" && new Date(c.deadline).getTime() > now;
}

/** Team selection (SPEC §2): pick 5 players under the rules, then go to payment. */
export default function TeamBuilder(props: TeamBuilderProps) {
  const { competition: state, players } = useBuilderData(
    props.competitionId,
    props.competition,
    props.players,
  );
  if (state.status === "loading") {
    return (
      <StatusCard title="Loading competition details...">
        <span
          aria-hidden="true"
          className="h-6 w-6 animate-spin rounded-full border-2 border-primary border-t-transparent"
        />
      </StatusCard>
    );
  }
  if (state.status === "missing") {
    return (
      <StatusCard
        title="Competition not found"
        description="It may have been removed. Pick another contest from the list."
      >
        <Button href="/">Back to contests</Button>
      </StatusCard>
    );
  }
  return <Builder competition={state.value} players={players} renderedAt={props.renderedAt} />;
}

function Builder(
  { competition, players, renderedAt }: {
    competition: BuilderCompetition;
    players: PickPlayer[] | null;
    renderedAt: string;
  },
) {
  const rules = useMemo(() => rulesOf(competition), [competition]);
  const team = useTeam(competition.id, players, rules);
  const [open, setOpen] = useState(() => isOpen(competition, new Date(renderedAt).getTime()));
  const onExpire = useCallback(() => setOpen(false), []);

  useEffect(() => {
    setOpen(isOpen(competition, Date.now()));
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
            {competition.status === "UPCOMING"
              ? "The entry deadline has passed."
              : "Picks can no longer be submitted."}{" "}
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
