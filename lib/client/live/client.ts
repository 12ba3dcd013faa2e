/**
 * Browser reads of the leaderboard page: the ranked rows with their paging headers, the events
 * and the competition. Errors are `ApiError`s, message "status: body".
 */
import { ApiError, apiFetch } from "@/lib/client/api.ts";
import {
  type LeaderboardCompetition,
  type LeaderboardRow,
  type LiveEvent,
  pickCompetition,
} from "@/lib/domain/live.ts";

export interface LeaderboardPage {
  /** The rows of the requested page, by rank. */
  rows: LeaderboardRow[];
  /** Rows of the requested teamIds that are not on the page, by rank. */
  own: LeaderboardRow[];
  total: number;
}

/** GET /api/competitions/{id}/leaderboard with paging and the visitor's own team ids. */
export async function fetchLeaderboard(
  competitionId: number,
  options: { limit: number; offset?: number; teamIds?: string[] },
): Promise<LeaderboardPage> {
  const params = new URLSearchParams({
    limit: String(options.limit),
    offset: String(options.offset ?? 0),
  });
  if (options.teamIds?.length) params.set("teamIds", options.teamIds.join(","));
  const res = await fetch(`/api/competitions/${competitionId}/leaderboard?${params}`, {
    credentials: "include",
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  const all = await res.json() as LeaderboardRow[];
  const total = Number(res.headers.get("x-total-count") ?? all.length);
  const onPage = Math.max(0, Math.min(options.limit, total - (options.offset ?? 0)));
  return { rows: all.slice(0, onPage), own: all.slice(onPage), total };
}

/** GET /api/competitions/{id}/events: the newest events first. */
export function fetchEvents(competitionId: number): Promise<LiveEvent[]> {
  return apiFetch<LiveEvent[]>(`/api/competitions/${competitionId}/events`);
}

/** GET /api/competitions/{id}, reduced to what the leaderboard page reads. */
export async function fetchCompetition(competitionId: number): Promise<LeaderboardCompetition> {
  return pickCompetition(
    await apiFetch<LeaderboardCompetition>(`/api/competitions/${competitionId}`),
  );
}
