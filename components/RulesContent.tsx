import { multiplierText } from "@/lib/domain/captain.ts";
import { formatSalary } from "@/lib/domain/format.ts";
import { BONUS_POINTS, type PositionScoring, SCORING } from "@/lib/domain/scoring.ts";
import type { Position } from "@/lib/domain/types.ts";

export interface RulesContentProps {
  maxPlayersPerTeam?: number;
  minGoalkeepers?: number;
  minDefenders?: number;
  maxForwards?: number | null;
  /**
   * The competition's cap, hidden when null (no cap). Unset (no contest at hand): each contest's
   * own cap is pointed to, since contests use different ones.
   */
  salaryCap?: number | null;
  /** The competition's captain multiplier, when its teams name a captain and a vice-captain. */
  captainMultiplier?: number | null;
  /** The competition's currency (the cap is shown in it); USD when unset. */
  currency?: string;
}

const POSITIONS: Position[] = ["GK", "DEF", "MID", "FWD"];

/** The scoring rows, read from the table the server scores with (lib/domain/scoring.ts). */
const SCORING_ROWS: { label: string; points: (s: PositionScoring) => number }[] = [
  { label: "Played 1-59 min", points: (s) => s.played },
  { label: "Played 60+ min", points: (s) => s.played60 },
  { label: "Goal", points: (s) => s.goal },
  { label: "Assist", points: (s) => s.assist },
  { label: "Clean sheet", points: (s) => s.cleanSheet },
  { label: "Save", points: (s) => s.save },
  { label: "Penalty save", points: (s) => s.penaltySave },
  { label: "Per 2 goals conceded", points: (s) => s.goalsConcededPer2 },
  { label: "Yellow card", points: (s) => s.yellowCard },
  { label: "Red card", points: (s) => s.redCard },
  { label: "Own goal", points: (s) => s.ownGoal },
  { label: "Penalty miss", points: (s) => s.penaltyMiss },
  { label: "Best player bonus", points: () => BONUS_POINTS },
];

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** "+6", "−1", "+0.5"; a dash for 0 (does not score for that position). */
function signed(n: number): string {
  if (n === 0) return "–";
  return n > 0 ? `+${n}` : `−${Math.abs(n)}`;
}

function ScoringTable() {
  return (
    <details className="group rounded-lg border border-border" data-scoring="">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-semibold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        How points are scored
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          className="shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
        >
          <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </summary>
      <div className="border-t border-border px-3 pb-3 pt-2">
        <table className="w-full text-sm">
          <caption className="pb-2 text-left text-xs text-muted-foreground">
            Points per player, by position. Your team scores the sum of its 5 players.
          </caption>
          <thead>
            <tr className="text-xs text-muted-foreground">
              <th scope="col" className="py-1 text-left font-medium">Event</th>
              {POSITIONS.map((p) => (
                <th key={p} scope="col" className="w-11 py-1 text-right font-medium">{p}</th>
              ))}
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {SCORING_ROWS.map((row) => (
              <tr key={row.label} className="border-t border-border/60">
                <th scope="row" className="py-1 pr-2 text-left font-normal">{row.label}</th>
                {POSITIONS.map((p) => {
                  const points = row.points(SCORING[p]);
                  return (
                    <td
                      key={p}
                      className={points < 0
                        ? "py-1 text-right font-semibold text-destructive"
                        : points > 0
                        ? "py-1 text-right font-semibold"
                        : "py-1 text-right text-muted-foreground"}
                    >
                      {signed(points)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/**
 * The body of the 'Fantasy Rules' dialog: the team rules (the competition's values, else the
 * defaults), the salary cap and, folded, the points table.
 */
export function RulesContent(props: RulesContentProps) {
  const perTeam = props.maxPlayersPerTeam ?? 3;
  const goalkeepers = props.minGoalkeepers ?? 1;
  const defenders = props.minDefenders ?? 1;
  const forwards = props.maxForwards === undefined ? 2 : props.maxForwards;
  const cap = props.salaryCap;
  const multiplier = props.captainMultiplier ?? null;
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
    <div className="grid gap-4">
      <ol className="grid gap-2" data-rules="">
        {rules.map((rule, index) => (
          <li key={rule} className="flex items-center gap-3 rounded-lg bg-muted px-3 py-2 text-sm">
            <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-foreground">
              {index + 1}
            </span>
            <span>{rule}</span>
          </li>
        ))}
      </ol>
      {cap === undefined && (
        <p className="text-sm text-muted-foreground" data-salary-cap="">
          Each contest sets its own salary cap: your 5 players' salaries must add up to no more than
          it. The team builder shows what is left.
        </p>
      )}
      {typeof cap === "number" && (
        <p className="text-sm text-muted-foreground" data-salary-cap="">
          Your 5 players' salaries must add up to no more than the{" "}
          <strong className="font-semibold text-foreground">
            {formatSalary(cap, props.currency)}
          </strong>{" "}
          salary cap.
        </p>
      )}
      {multiplier !== null && (
        <p className="text-sm text-muted-foreground" data-captain-rule="">
          Name a{" "}
          <strong className="font-semibold text-foreground">captain</strong>, whose points count
          {" "}
          {multiplierText(multiplier)}, and a vice-captain among your 5 players. The vice-captain
          takes the armband only if the captain does not play.
        </p>
      )}
      <ScoringTable />
    </div>
  );
}
