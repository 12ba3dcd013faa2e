/** Display labels and badge variants of the admin screens. */
import type { BadgeVariant } from "@/lib/client/badge.ts";
import type { CompetitionStatus, MatchResult, Position } from "@/lib/domain/types.ts";
import { formatMoney } from "@/lib/domain/format.ts";

/** Money on the admin side: always with $. */
export function adminMoney(n: number | string | null | undefined): string {
  return `$${formatMoney(n)}`;
}

const STATUS_VARIANTS: Record<CompetitionStatus, BadgeVariant> = {
  UPCOMING: "secondary",
  LIVE: "live",
  COMPLETED: "success",
  CANCELLED: "destructive",
};

/** Badge variant of a competition status. */
export function statusVariant(status: string): BadgeVariant {
  return STATUS_VARIANTS[status as CompetitionStatus] ?? "outline";
}

const RESULT_LABELS: Record<MatchResult, string> = {
  HOME_WIN: "Home Win",
  AWAY_WIN: "Away Win",
  DRAW: "Draw",
  NOT_PLAYED: "Not Played",
};

/** Label of a match result (Home Win, Away Win, Draw, Not Played). */
export function resultLabel(result: string | null | undefined): string {
  return RESULT_LABELS[result as MatchResult] ?? "Not Played";
}

/**
 * What the matches list says of a match: its result once over ("Away Win 2–3"), "In play 1–2"
 * while it is being played (its score is the score so far, not a result), else its status.
 */
export function matchStateText(
  m: { status: string; result: string | null; homeScore: number | null; awayScore: number | null },
): string {
  const score = m.homeScore == null || m.awayScore == null ? "" : ` ${m.homeScore}–${m.awayScore}`;
  if (m.status === "LIVE") return `In play${score}`;
  if (m.status === "POSTPONED") return "Postponed";
  return `${resultLabel(m.result)}${score}`;
}

/** Badge variant of the matches list's state: in play stands out as live, postponed as called off. */
export function matchStateVariant(m: { status: string; result: string | null }): BadgeVariant {
  if (m.status === "POSTPONED") return "destructive";
  return m.status === "LIVE" ? "live" : resultVariant(m.result);
}

/** The result badge of a match: "Postponed" when called off, else its result's label. */
export function matchBadge(
  match: { status?: string | null; result?: string | null },
): { label: string; variant: BadgeVariant } {
  if (match.status === "POSTPONED") return { label: "Postponed", variant: "destructive" };
  return { label: resultLabel(match.result), variant: resultVariant(match.result) };
}

/** Badge variant of a match result: a win stands out, a draw is neutral, unplayed is quiet. */
export function resultVariant(result: string | null | undefined): BadgeVariant {
  if (result === "HOME_WIN" || result === "AWAY_WIN") return "default";
  return result === "DRAW" ? "secondary" : "outline";
}

export const POSITION_GROUPS: { position: Position; title: string }[] = [
  { position: "GK", title: "Goalkeepers" },
  { position: "DEF", title: "Defenders" },
  { position: "MID", title: "Midfielders" },
  { position: "FWD", title: "Forwards" },
];
