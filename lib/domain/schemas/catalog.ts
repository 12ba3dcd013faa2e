/**
 * Input schemas of the admin's catalogue: matches, teams and players.
 * Built from the field schemas of `fields.ts` (messages, zod/mini).
 */
import * as z from "zod/mini";
import { roundMoney } from "@/lib/domain/format.ts";
import { LEAGUES, MATCH_RESULTS, MATCH_STATUSES, POSITIONS } from "@/lib/domain/types.ts";
import {
  blankToUndefined,
  MAX_MONEY,
  numberish,
  optionalNullable,
  optionalUrl,
  preprocess,
  requiredDate,
  requiredId,
  requiredText,
  statCount,
} from "@/lib/domain/schemas/fields.ts";

const scoreMessage = "Scores must be whole numbers of at least 0";
const score = optionalNullable(
  z.number({ error: scoreMessage }).check(z.int(scoreMessage), z.gte(0, scoreMessage)),
);

export const POSTPONED_HAS_NO_RESULT = "A postponed match has no result: clear both scores";

/**
 * Match create/update body. `status` and `result` follow the scores, except `status: POSTPONED`,
 * which postpones the match (no scores allowed); any other status clears a postponement.
 */
export const matchInputSchema = z.object({
  homeTeamId: requiredId("Home team is required"),
  awayTeamId: requiredId("Away team is required"),
  league: z.enum(LEAGUES, { error: "League is required" }),
  kickoffTime: requiredDate("Kickoff time is required", "Kickoff time"),
  stadium: requiredText("Stadium is required"),
  homeScore: score,
  awayScore: score,
  result: preprocess(blankToUndefined, z.optional(z.enum(MATCH_RESULTS))),
  status: preprocess(blankToUndefined, z.optional(z.enum(MATCH_STATUSES))),
}).check(
  z.refine((m) => m.homeTeamId !== m.awayTeamId, {
    message: "Home team and away team cannot be the same",
    path: ["awayTeamId"],
  }),
  z.refine((m) => m.status !== "POSTPONED" || (m.homeScore == null && m.awayScore == null), {
    message: POSTPONED_HAS_NO_RESULT,
    path: ["status"],
  }),
);
export type MatchInput = z.infer<typeof matchInputSchema>;

/** POST /api/admin/teams body. */
export const teamInputSchema = z.object({
  name: requiredText("Team name is required", 100),
  shortName: requiredText("Short name is required", 10),
  league: z.enum(LEAGUES, { error: "League is required" }),
  logoUrl: optionalUrl(),
});
export type TeamInput = z.infer<typeof teamInputSchema>;

const playerRequired = "Player name and position are required";
const salaryMin = "Salary must be at least 100";
const salaryMax = `Salary must be at most ${MAX_MONEY}`;
/** A salary (100 up to MAX_MONEY, numeric strings allowed), rounded to cents. */
function salary(fallback?: number) {
  const amount = z.number({ error: salaryMin }).check(
    z.gte(100, salaryMin),
    z.lte(MAX_MONEY, salaryMax),
  );
  const value = preprocess(
    numberish,
    fallback === undefined ? amount : z._default(amount, fallback),
  );
  return z.pipe(value, z.transform(roundMoney));
}

const playerFields = {
  name: requiredText(playerRequired, 100),
  position: z.enum(POSITIONS, { error: playerRequired }),
  teamId: requiredId("Team is required"),
  salary: salary(),
  imageUrl: optionalUrl(),
  goals: statCount("Goals"),
  assists: statCount("Assists"),
  cleanSheets: statCount("Clean sheets"),
};

/** POST /api/admin/players body; salary defaults to 1000 and the stats to 0. */
export const playerInputSchema = z.object({
  ...playerFields,
  salary: salary(1000),
  goals: z._default(playerFields.goals, 0),
  assists: z._default(playerFields.assists, 0),
  cleanSheets: z._default(playerFields.cleanSheets, 0),
});
export type PlayerInput = z.infer<typeof playerInputSchema>;

/** PATCH /api/admin/competitions/{id}/players/{playerId} body: the salary in that competition. */
export const competitionSalarySchema = z.object({ salary: salary() });

/** PATCH /api/admin/players/{id} body: any subset of the player fields (no defaults applied). */
export const playerPatchSchema = z.partial(z.object(playerFields)).check(
  z.refine((p) => Object.values(p).some((v) => v !== undefined), "No fields to update"),
);
export type PlayerPatch = z.infer<typeof playerPatchSchema>;
