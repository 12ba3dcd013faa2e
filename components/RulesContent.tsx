export interface RulesContentProps {
  maxPlayersPerTeam?: number;
  minGoalkeepers?: number;
  minDefenders?: number;
  maxForwards?: number | null;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** The team rules list of the 'Fantasy Rules' dialog; values default to SPEC §9's. */
export function RulesContent(props: RulesContentProps) {
  const perTeam = props.maxPlayersPerTeam ?? 3;
  const goalkeepers = props.minGoalkeepers ?? 1;
  const defenders = props.minDefenders ?? 1;
  const forwards = props.maxForwards === undefined ? 2 : props.maxForwards;
  const rules = [
    "Select exactly 5 players",
    `Maximum ${perTeam} ${plural(perTeam, "player", "players")} from the same team`,
    `At least ${goalkeepers} ${plural(goalkeepers, "goalkeeper", "goalkeepers")} (GK)`,
    `At least ${defenders} ${plural(defenders, "defender", "defenders")} (DEF)`,
    forwards === null
      ? null
      : `Maximum ${forwards} ${plural(forwards, "forward", "forwards")} (FWD)`,
  ].filter((rule): rule is string => rule !== null);

  return (
    <ol class="grid gap-2" data-rules="">
      {rules.map((rule, index) => (
        <li key={rule} class="flex items-center gap-3 rounded-lg bg-muted px-3 py-2 text-sm">
          <span class="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-foreground">
            {index + 1}
          </span>
          <span>{rule}</span>
        </li>
      ))}
    </ol>
  );
}
