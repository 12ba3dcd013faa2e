/**
 * Team composition rules (SPEC §5, §9), shared by the team builder island and the server.
 * Messages are the SPEC texts word for word; amounts in them use formatWhole ("$50,000").
 */
import type { Competition, Position } from "./types.ts";
import { formatWhole, toCents } from "./format.ts";

export const TEAM_SIZE = 5;
export const MIN_GOALKEEPERS = 1;

export const DEFAULT_RULES: Readonly<TeamRules> = {
  maxPlayersPerTeam: 3,
  maxForwards: 2,
  minDefenders: 1,
  salaryCap: 50000,
};

export interface TeamRules {
  maxPlayersPerTeam: number;
  maxForwards: number;
  minDefenders: number;
  /** null: no cap. */
  salaryCap: number | null;
}

export interface RulePlayer {
  id: number;
  position: Position;
  teamId: number;
  salary: number;
}

export interface RuleViolation {
  title: string;
  message: string;
}

type RuleFields = Pick<
  Competition,
  "maxPlayersPerTeam" | "maxForwards" | "minDefenders" | "salaryCap"
>;

function finite(v: unknown): number | null {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

/**
 * The rules of a competition. A missing or unreadable field takes its default (3/2/1/50000);
 * maxPlayersPerTeam below 1 also takes the default. A salaryCap that is null, 0 or negative
 * means no cap (undefined still means the default 50000).
 */
export function rulesOf(c: Partial<Record<keyof RuleFields, unknown>>): TeamRules {
  const perTeam = finite(c.maxPlayersPerTeam);
  const forwards = finite(c.maxForwards);
  const defenders = finite(c.minDefenders);
  const cap = finite(c.salaryCap);
  return {
    maxPlayersPerTeam: perTeam !== null && perTeam >= 1
      ? Math.floor(perTeam)
      : DEFAULT_RULES.maxPlayersPerTeam,
    maxForwards: forwards !== null && forwards >= 0
      ? Math.floor(forwards)
      : DEFAULT_RULES.maxForwards,
    minDefenders: defenders !== null && defenders >= 0
      ? Math.floor(defenders)
      : DEFAULT_RULES.minDefenders,
    salaryCap: c.salaryCap === undefined
      ? DEFAULT_RULES.salaryCap
      : cap !== null && cap > 0
      ? cap
      : null,
  };
}

/** Sum of salaries, exact to the cent. */
export function teamSalary(players: { salary: number }[]): number {
  return players.reduce((sum, p) => sum + toCents(Number(p.salary) || 0), 0) / 100;
}

function countWhere<T>(items: T[], pred: (item: T) => boolean): number {
  return items.reduce((n, item) => n + (pred(item) ? 1 : 0), 0);
}

const teamCompleteMessage =
  `You've already selected ${TEAM_SIZE} players. Remove a player before adding another.`;
const teamConstraintMessage = (n: number) =>
  `You can only select a maximum of ${n} players from the same team.`;
const forwardsMessage = (n: number) => `You can only select a maximum of ${n} forwards.`;
const exactSizeMessage = `Please select exactly ${TEAM_SIZE} players.`;
const goalkeeperMessage = "You must select at least 1 goalkeeper.";
const defendersMessage = (n: number) =>
  n === 1 ? "You must select at least 1 defender." : `You must select at least ${n} defenders.`;
const salaryOverMessage = (total: number, cap: number) =>
  `Your team salary ($${formatWhole(total)}) exceeds the salary cap ($${
    formatWhole(cap)
  }). Please adjust your team.`;

/** Whether some real team has more than `max` players in the list. */
function overfullTeam(players: RulePlayer[], max: number): boolean {
  const counts = new Map<number, number>();
  for (const p of players) counts.set(p.teamId, (counts.get(p.teamId) ?? 0) + 1);
  return [...counts.values()].some((n) => n > max);
}

/**
 * Why `candidate` cannot join `selected`, in the SPEC §5 table order, or null when it can.
 * The salary message is "…cannot exceed $50,000. This would put you 1,200 over the cap." (the SPEC
 * puts "$" before the cap only). Duplicates are not checked here: the builder toggles instead.
 */
export function checkAddPlayer(
  selected: RulePlayer[],
  candidate: RulePlayer,
  rules: TeamRules,
): RuleViolation | null {
  if (selected.length >= TEAM_SIZE) {
    return { title: "Team Complete", message: teamCompleteMessage };
  }
  const sameTeam = countWhere(selected, (p) => p.teamId === candidate.teamId);
  if (sameTeam >= rules.maxPlayersPerTeam) {
    return { title: "Team Constraint", message: teamConstraintMessage(rules.maxPlayersPerTeam) };
  }
  const forwards = countWhere(selected, (p) => p.position === "FWD");
  if (candidate.position === "FWD" && forwards >= rules.maxForwards) {
    return { title: "Position Constraint", message: forwardsMessage(rules.maxForwards) };
  }
  if (rules.salaryCap === null) return null;
  const total = teamSalary([...selected, candidate]);
  if (toCents(total) <= toCents(rules.salaryCap)) return null;
  return {
    title: "Salary Cap Exceeded",
    message: `Your team salary cannot exceed $${formatWhole(rules.salaryCap)}. This would put you ${
      formatWhole(total - rules.salaryCap)
    } over the cap.`,
  };
}

/**
 * Why the team cannot continue to payment, or null when it can. Checked in this order:
 * exactly 5 ('Team Incomplete'), a goalkeeper, enough defenders ('Team Incomplete'),
 * per-team maximum ('Team Constraint'), forwards ('Position Constraint'), cap ('Salary Cap Exceeded').
 */
export function checkTeamComplete(selected: RulePlayer[], rules: TeamRules): RuleViolation | null {
  if (selected.length !== TEAM_SIZE) return { title: "Team Incomplete", message: exactSizeMessage };
  if (countWhere(selected, (p) => p.position === "GK") < MIN_GOALKEEPERS) {
    return { title: "Team Incomplete", message: goalkeeperMessage };
  }
  if (countWhere(selected, (p) => p.position === "DEF") < rules.minDefenders) {
    return { title: "Team Incomplete", message: defendersMessage(rules.minDefenders) };
  }
  if (overfullTeam(selected, rules.maxPlayersPerTeam)) {
    return { title: "Team Constraint", message: teamConstraintMessage(rules.maxPlayersPerTeam) };
  }
  if (countWhere(selected, (p) => p.position === "FWD") > rules.maxForwards) {
    return { title: "Position Constraint", message: forwardsMessage(rules.maxForwards) };
  }
  const total = teamSalary(selected);
  if (rules.salaryCap !== null && toCents(total) > toCents(rules.salaryCap)) {
    return { title: "Salary Cap Exceeded", message: salaryOverMessage(total, rules.salaryCap) };
  }
  return null;
}

/**
 * Every rule a submitted team breaks (server side); [] when valid. Messages, in order:
 * size, 'Each player can only be selected once.', per-team, goalkeeper, defenders, forwards, cap.
 */
export function validateTeam(players: RulePlayer[], rules: TeamRules): string[] {
  const problems: string[] = [];
  if (players.length !== TEAM_SIZE) problems.push(exactSizeMessage);
  if (new Set(players.map((p) => p.id)).size !== players.length) {
    problems.push("Each player can only be selected once.");
  }
  if (overfullTeam(players, rules.maxPlayersPerTeam)) {
    problems.push(teamConstraintMessage(rules.maxPlayersPerTeam));
  }
  if (countWhere(players, (p) => p.position === "GK") < MIN_GOALKEEPERS) {
    problems.push(goalkeeperMessage);
  }
  if (countWhere(players, (p) => p.position === "DEF") < rules.minDefenders) {
    problems.push(defendersMessage(rules.minDefenders));
  }
  if (countWhere(players, (p) => p.position === "FWD") > rules.maxForwards) {
    problems.push(forwardsMessage(rules.maxForwards));
  }
  const total = teamSalary(players);
  if (rules.salaryCap !== null && toCents(total) > toCents(rules.salaryCap)) {
    problems.push(salaryOverMessage(total, rules.salaryCap));
  }
  return problems;
}
