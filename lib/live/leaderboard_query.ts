/**
 * The query of GET /api/competitions/{id}/leaderboard: `?limit=&offset=` pick a page of the
 * ranking (default the first 100) and `?teamIds=A,B` adds the caller's own rows wherever they rank.
 */
import * as z from "zod/mini";
import { zodIssues } from "@/lib/domain/schemas/fields.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";

export const DEFAULT_LEADERBOARD_LIMIT = 100;
export const MAX_LEADERBOARD_LIMIT = 500;
export const MAX_TEAM_IDS = 20;

const whole = (name: string, min: number, max: number, fallback: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v);
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      ctx.issues.push({
        code: "custom",
        message: `${name} must be a whole number from ${min} to ${max}`,
        input: v,
      });
      return z.NEVER;
    }),
  );

const leaderboardQuerySchema = z.object({
  limit: whole("limit", 1, MAX_LEADERBOARD_LIMIT, DEFAULT_LEADERBOARD_LIMIT),
  offset: whole("offset", 0, 10_000_000, 0),
  teamIds: z.pipe(
    z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) =>
        (v ?? "").split(",").map((id) => id.trim()).filter(Boolean)
      ),
    ),
    z.array(z.string().check(z.maxLength(40, "teamIds entries are at most 40 characters")))
      .check(z.maxLength(MAX_TEAM_IDS, `At most ${MAX_TEAM_IDS} teamIds`)),
  ),
});

export type LeaderboardQuery = z.output<typeof leaderboardQuerySchema>;

/** Reads limit, offset and teamIds from a URL; 400 with issues when they are out of range. */
export function parseLeaderboardQuery(url: URL): LeaderboardQuery {
  const params = Object.fromEntries(
    ["limit", "offset", "teamIds"].flatMap((name) => {
      const value = url.searchParams.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  const result = leaderboardQuerySchema.safeParse(params);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new InvalidInputError(issues[0]?.message ?? "Invalid query", issues);
}
