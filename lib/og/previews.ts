/**
 * Link previews of the public pages: the Open Graph / Twitter card texts of a competition or a
 * team, and the data of their preview images (lib/og/cards.ts). Every URL is absolute on the
 * configured public origin (`linkOrigin`), never on a request's Host header: a preview crawled
 * through a forged host must still point at this site.
 */
import { entryDetails } from "@/lib/api/entry_details.ts";
import type { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import {
  displayName,
  formatPoints,
  formatPrice,
  leagueLabel,
  prizeText,
} from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { type PoolFields, shownPrizePool } from "@/lib/domain/formats.ts";
import type { CompetitionCard, TeamCard } from "./cards.ts";

/** What a page's social meta tags say (see components/SocialMeta.tsx). */
export interface SocialPreview {
  title: string;
  description: string;
  /** The page's canonical absolute URL. */
  url: string;
  /** The absolute URL of the 1200×630 PNG. */
  image: string;
  imageAlt: string;
}

type PreviewCompetition = Pick<
  Competition,
  | "id"
  | "name"
  | "league"
  | "entryFee"
  | "prizePool"
  | "prizeType"
  | "customPrizeDescription"
  | "currency"
  | "deadline"
  | "status"
>;

const DEADLINE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/**
 * A deadline for people in any time zone: "6 Dec 2026, 15:00 UTC"; short, "6 Dec, 15:00" (the
 * label then says UTC), where space is scarce (the preview image).
 */
export function formatDeadlineUtc(deadline: string, short = false): string {
  const at = new Date(deadline);
  if (Number.isNaN(at.getTime())) return "To be announced";
  const parts = DEADLINE_FORMAT.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  const time = `${part("hour")}:${part("minute")}`;
  if (short) return `${part("day")} ${part("month")}, ${time}`;
  return `${part("day")} ${part("month")} ${part("year")}, ${time} UTC`;
}

/** Where the competition stands, as the preview's third fact. */
function stage(c: PreviewCompetition, now: Date, short: boolean) {
  switch (c.status) {
    case "LIVE":
      return { label: "Status", value: "Live now" };
    case "COMPLETED":
      return { label: "Status", value: "Final results" };
    case "CANCELLED":
      return { label: "Status", value: "Cancelled" };
  }
  if (new Date(c.deadline).getTime() <= now.getTime()) {
    return { label: "Status", value: "Entries closed" };
  }
  const label = short ? "Deadline (UTC)" : "Deadline";
  return { label, value: formatDeadlineUtc(c.deadline, short) };
}

/**
 * The fee, prize pool and deadline (or status) of a competition, as label/value pairs; `short`
 * for the preview image's boxes.
 */
export function competitionFacts(
  c: PreviewCompetition & Omit<PoolFields, "prizePool">,
  now: Date,
  short = false,
) {
  return [
    { label: "Entry fee", value: formatPrice(c.entryFee, c.currency) },
    { label: "Prize pool", value: prizeText({ ...c, prizePool: shownPrizePool(c) }) },
    stage(c, now, short),
  ];
}

/** The facts as one line: "Entry fee $10.00 · Prize pool $100.00 · Deadline 6 Dec 2026, 15:00 UTC". */
function factsLine(c: PreviewCompetition, now: Date): string {
  return competitionFacts(c, now).map((f) => `${f.label} ${f.value}`).join(" · ");
}

/** The competition preview image's data. */
export function competitionCard(c: PreviewCompetition, now: Date): CompetitionCard {
  return { name: c.name, league: leagueLabel(c.league), facts: competitionFacts(c, now, true) };
}

/**
 * The preview of a competition page (`path`: "/team-selection/1", "/leaderboard/1"): its name,
 * "Entry fee $10.00 · Prize pool $100.00 · Deadline 6 Dec 2026, 15:00 UTC", and its image.
 */
export function competitionPreview(
  c: PreviewCompetition,
  origin: string,
  path: string,
  now: Date,
): SocialPreview {
  return {
    title: c.name,
    description: factsLine(c, now),
    url: `${origin}${path}`,
    image: `${origin}/og/competition/${c.id}.png`,
    imageAlt: `${c.name}: entry fee, prize pool and deadline`,
  };
}

/** The preview of a page about one team: its name and points in the competition, its image. */
export function teamPreview(
  team: { teamId: string; teamName: string },
  c: PreviewCompetition,
  origin: string,
  path: string,
  now: Date,
): SocialPreview {
  const name = displayName(team.teamName, team.teamId);
  return {
    title: `${name} · ${c.name}`,
    description: `A 5-player team in ${c.name}. ${factsLine(c, now)}`,
    url: `${origin}${path}`,
    image: `${origin}/og/team/${encodeURIComponent(team.teamId)}.png`,
    imageAlt: `${name}: the five players of this team with their points`,
  };
}

/** The team preview image's data, with live points; null for an unknown team id. */
export async function teamCard(
  kv: Deno.Kv,
  leaderboards: LeaderboardCache,
  teamId: string,
): Promise<TeamCard | null> {
  const details = await entryDetails(kv, leaderboards, teamId);
  if (!details) return null;
  const { entry, competition, players, hiddenPicks } = details;
  return {
    teamName: displayName(entry.teamName, entry.teamId),
    teamId: entry.teamId,
    competitionName: competition.name,
    points: formatPoints(entry.totalPoints),
    players: players.map((p) => ({
      name: p.name,
      position: p.position,
      club: p.team?.name ?? "",
      points: formatPoints(p.points),
      role: p.captain,
    })),
    hiddenPicks,
  };
}
