/**
 * Team composition rules, shared by the team builder island and the server.
 * Messages are the product's agreed texts, word for word; amounts in them are in the
 * competition's currency ("$50,000", "£40,000"), the overage included.
 */
import type { Competition, Position } from "./types.ts";
import { formatSalary, toCents } from "./format.ts";

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
  /** The competition's currency (default USD): salaries and the cap are shown in it. */
  currency?: string;
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
  "maxPlayersPerTeam" | "maxForwards" | "minDefenders" | "salaryCap" | "currency"
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
    ...(typeof c.currency === "string" && c.currency ? { currency: c.currency } : {}),
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
const salaryOverMessage = (total: number, rules: TeamRules) =>
  `Your team salary (${formatSalary(total, rules.currency)}) exceeds the salary cap (${
    formatSalary(rules.salaryCap, rules.currency)
  }). Please adjust your team.`;

/** Whether some real team has more than `max` players in the list. */
function overfullTeam(players: RulePlayer[], max: number): boolean {
  const counts = new Map<number, number>();
  for (const p of players) counts.set(p.teamId, (counts.get(p.teamId) ?? 0) + 1);
  return [...counts.values()].some((n) => n > max);
}

/**
 * Why `candidate` cannot join `selected`, in the order the builder shows the rules in, or null
 * when it can.
 * The salary message is "…cannot exceed $50,000. This would put you $1,200 over the cap.". Duplicates are not checked here: the builder toggles instead.
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
    message: `Your team salary cannot exceed ${
      formatSalary(rules.salaryCap, rules.currency)
    }. This would put you ${formatSalary(total - rules.salaryCap, rules.currency)} over the cap.`,
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
    return { title: "Salary Cap Exceeded", message: salaryOverMessage(total, rules) };
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
    problems.push(salaryOverMessage(total, rules));
  }
  return problems;
}

/** How many branches `missingForTeam` explores before it stops looking (and assumes a team). */
const SEARCH_LIMIT = 200_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * What stops anyone from building a valid team out of `players` under `rules`, in words for the
 * admin and the visitor ("Add 2 more defenders."), or null when at least one valid team exists.
 * @example missingForTeam([], DEFAULT_RULES) // "No players have been added yet."
 */
export function missingForTeam(players: RulePlayer[], rules: TeamRules): string | null {
  if (players.length === 0) return "No players have been added yet.";
  if (players.length < TEAM_SIZE) {
    return `Only ${plural(players.length, "player")}: a team needs ${TEAM_SIZE}.`;
  }
  const count = (position: string) => countWhere(players, (p) => p.position === position);
  if (count("GK") < MIN_GOALKEEPERS) return "No goalkeeper: a team needs at least 1.";
  if (count("DEF") < rules.minDefenders) {
    return `Only ${plural(count("DEF"), "defender")}: a team needs at least ${rules.minDefenders}.`;
  }
  const clubs = new Map<number, number>();
  for (const p of players) clubs.set(p.teamId, (clubs.get(p.teamId) ?? 0) + 1);
  const usable = [...clubs.values()].reduce((n, c) => n + Math.min(c, rules.maxPlayersPerTeam), 0);
  if (usable < TEAM_SIZE) {
    return `Too few clubs: at most ${rules.maxPlayersPerTeam} players may come from one club.`;
  }
  if (players.length - count("FWD") + Math.min(count("FWD"), rules.maxForwards) < TEAM_SIZE) {
    return `Too many forwards: a team may have at most ${rules.maxForwards}.`;
  }
  return findTeam(players, rules)
    ? null
    : rules.salaryCap !== null
    ? `No 5 players fit the rules under the salary cap of ${
      formatSalary(rules.salaryCap, rules.currency)
    }.`
    : "No 5 players fit the rules.";
}

/** Depth-first search, cheapest first, for one valid team; true also when the search gives up. */
function findTeam(players: RulePlayer[], rules: TeamRules): boolean {
  const sorted = [...players].sort((a, b) => a.salary - b.salary);
  const cap = rules.salaryCap === null ? Infinity : toCents(rules.salaryCap);
  const cents = sorted.map((p) => toCents(p.salary));
  const picked: RulePlayer[] = [];
  let budget = SEARCH_LIMIT;
  const search = (from: number, total: number): boolean => {
    if (--budget <= 0) return true;
    if (picked.length === TEAM_SIZE) return validateTeam(picked, rules).length === 0;
    const slots = TEAM_SIZE - picked.length;
    const need = (q: RulePlayer[]) =>
      Math.max(0, MIN_GOALKEEPERS - countWhere(q, (x) => x.position === "GK")) +
      Math.max(0, rules.minDefenders - countWhere(q, (x) => x.position === "DEF"));
    if (need(picked) > slots) return false;
    for (let i = from; i + slots <= sorted.length; i++) {
      let cheapest = total;
      for (let k = i; k < i + slots; k++) cheapest += cents[k];
      if (cheapest > cap) return false;
      const p = sorted[i];
      if (countWhere(picked, (q) => q.teamId === p.teamId) >= rules.maxPlayersPerTeam) continue;
      if (
        p.position === "FWD" && countWhere(picked, (q) => q.position === "FWD") >= rules.maxForwards
      ) {
        continue;
      }
      picked.push(p);
      if (need(picked) > slots - 1) {
        picked.pop();
        continue;
      }
      const found = search(i + 1, total + cents[i]);
      picked.pop();
      if (found) return true;
    }
    return false;
  };
  return search(0, 0);
}

/** A suggested cap is a round number: up to the next 1,000. */
const CAP_STEP = 1000;

/**
 * A salary cap for a contest on `players` that a new form can start from: 70% of the way from
 * the five cheapest salaries to the five priciest, rounded up to 1,000, so choices cost something
 * and every valid team is not affordable. When that leaves no valid team (a cheap five that breaks
 * the position rules), the five priciest, which every valid team fits under. Null without 5
 * players.
 * @example suggestedSalaryCap(players, DEFAULT_RULES) // 42000
 */
export function suggestedSalaryCap(
  players: RulePlayer[],
  rules: Omit<TeamRules, "salaryCap">,
): number | null {
  if (players.length < TEAM_SIZE) return null;
  const salaries = players.map((p) => p.salary).sort((a, b) => a - b);
  const sum = (list: number[]) => list.reduce((total, s) => total + s, 0);
  const cheapest = sum(salaries.slice(0, TEAM_SIZE));
  const priciest = sum(salaries.slice(-TEAM_SIZE));
  const roundUp = (n: number) => Math.ceil(n / CAP_STEP) * CAP_STEP;
  const cap = roundUp(cheapest + 0.7 * (priciest - cheapest));
  return missingForTeam(players, { ...rules, salaryCap: cap }) === null ? cap : roundUp(priciest);
}
