/**
 * Browser side of friends' leagues: the leagues this browser made or joined (localStorage
 * 'userLeagues', with the member secret of an entry joined by e-mailed code) and the API calls.
 * Errors are `ApiError`s; `leagueError` turns one into the sentence to show.
 */
import { ApiError, apiFetch } from "@/lib/client/api.ts";
import type { LeagueRow, LeagueView } from "@/lib/domain/leagues.ts";

const KEY = "userLeagues";

/** A league this browser knows, and the member secrets it holds there (by team ID). */
export interface UserLeague {
  id: string;
  name: string;
  competitionId: number;
  memberTokens?: Record<string, string>;
}

/** The leagues this browser made or joined ([] when none or unreadable). */
export function getUserLeagues(): UserLeague[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter((l) => l && typeof l.id === "string" && typeof l.name === "string")
      : [];
  } catch {
    return [];
  }
}

/** Remembers a league (and a member secret for `teamId`), keeping what was known. */
export function rememberLeague(
  league: Pick<LeagueView, "id" | "name" | "competitionId">,
  member?: { teamId: string; memberToken: string },
): void {
  const all = getUserLeagues();
  const known = all.find((l) => l.id === league.id);
  const memberTokens = { ...known?.memberTokens };
  if (member) memberTokens[member.teamId] = member.memberToken;
  const next: UserLeague = {
    id: league.id,
    name: league.name,
    competitionId: league.competitionId,
    memberTokens,
  };
  try {
    localStorage.setItem(KEY, JSON.stringify([next, ...all.filter((l) => l.id !== league.id)]));
  } catch {
    // Storage full or blocked: the league is still on the server.
  }
}

/** Forgets a league this browser no longer holds any entry in. */
export function forgetLeague(id: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(getUserLeagues().filter((l) => l.id !== id)));
  } catch {
    // As above.
  }
}

/** The sentence to show for a failed call. */
export function leagueError(err: unknown): string {
  if (err instanceof ApiError) {
    return err.serverMessage ?? `Something went wrong (${err.status}). Please try again.`;
  }
  return "Could not reach the server. Check your connection and try again.";
}

/** POST /api/leagues. */
export function createLeague(input: { teamId: string; editToken: string; name: string }) {
  return apiFetch<{ league: LeagueView; inviteUrl: string }>("/api/leagues", {
    method: "POST",
    json: input,
  });
}

/** POST /api/leagues/{id}/members: with this browser's edit secret or an e-mailed code. */
export function joinLeague(
  id: string,
  input: { teamId: string; editToken?: string; code?: string },
) {
  return apiFetch<{ league: LeagueView; memberToken?: string }>(
    `/api/leagues/${encodeURIComponent(id)}/members`,
    { method: "POST", json: input },
  );
}

/** POST /api/leagues/{id}/codes: e-mails a join code to the team's address. */
export async function askJoinCode(id: string, teamId: string): Promise<string> {
  const answer = await apiFetch<{ message: string }>(
    `/api/leagues/${encodeURIComponent(id)}/codes`,
    { method: "POST", json: { teamId } },
  );
  return answer.message;
}

/** POST /api/leagues/{id}/leave. */
export function leaveLeague(
  id: string,
  input: { teamId: string; editToken?: string; memberToken?: string },
) {
  return apiFetch<{ message: string }>(`/api/leagues/${encodeURIComponent(id)}/leave`, {
    method: "POST",
    json: input,
  });
}

/** The answer of GET /api/leagues/{id}. */
export interface LeagueBoardAnswer {
  league: LeagueView;
  rows: LeagueRow[];
  total: number;
}

/** GET /api/leagues/{id}: the league and its board. */
export function fetchLeagueBoard(id: string) {
  return apiFetch<LeagueBoardAnswer>(
    `/api/leagues/${encodeURIComponent(id)}`,
  );
}

/** The window event that tells the league's board its members changed (LeaderboardLive spells it too). */
export const LEAGUE_CHANGED = "league-changed";
/** The window event the board sends with each board it read (`detail`: that answer). */
export const LEAGUE_BOARD = "league-board";
