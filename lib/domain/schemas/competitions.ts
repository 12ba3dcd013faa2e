/**
 * Input schemas of the admin's competition screens: a competition, its prizes and its players.
 * Built from the field schemas of `fields.ts` (messages, zod/mini).
 */
import * as z from "zod/mini";
import { MULTIPLIER_RANGE, validMultiplier } from "@/lib/domain/captain.ts";
import { entryFeeProblem } from "@/lib/domain/competition.ts";
import { COMPETITION_STATUSES, CURRENCIES, LEAGUES, PRIZE_TYPES } from "@/lib/domain/types.ts";
import {
  blankToUndefined,
  MAX_ENTRY_FEE,
  MAX_MONEY,
  nullableNumberish,
  numberish,
  optionalNullable,
  optionalText,
  optionalUrl,
  positiveMoney,
  preprocess,
  requiredDate,
  requiredId,
  requiredText,
  wholeCount,
} from "@/lib/domain/schemas/fields.ts";

const maxEntriesMessage = "Max entries must be a positive integer";
const minEntriesMessage = "Min entries must be a positive integer";
/** Competition create/update body (absent fields take the defaults). */
export const competitionInputSchema = z.object({
  name: requiredText("Name is required"),
  description: optionalText(),
  matchId: optionalNullable(
    z.number({ error: "Match must be a positive integer" }).check(z.int(), z.positive()),
  ),
  /** The round the contest spans instead of one match (exclusive with `matchId`). */
  roundId: optionalNullable(
    z.number({ error: "Round must be a positive integer" }).check(z.int(), z.positive()),
  ),
  /** Late swap: picks whose match has not kicked off may change after the deadline. */
  lateSwap: z.optional(z.boolean({ error: "Late swap must be true or false" })),
  league: z.enum(LEAGUES, { error: "League is required" }),
  entryFee: positiveMoney("Entry fee must be positive", "Entry fee", MAX_ENTRY_FEE),
  prizePool: positiveMoney("Prize pool must be positive", "Prize pool"),
  currency: preprocess(
    blankToUndefined,
    z._default(z.enum(CURRENCIES, { error: "Currency must be USD or GBP" }), "USD"),
  ),
  prizeType: preprocess(
    blankToUndefined,
    z._default(z.enum(PRIZE_TYPES, { error: "Prize type must be CASH or NON_CASH" }), "CASH"),
  ),
  customPrizeDescription: optionalText(),
  /** Absent with a match: the match's kick-off. */
  deadline: z.optional(requiredDate("Deadline is required", "Deadline")),
  status: preprocess(
    blankToUndefined,
    z._default(
      z.enum(COMPETITION_STATUSES, { error: "Status must be UPCOMING, LIVE or COMPLETED" }),
      "UPCOMING",
    ),
  ),
  maxEntries: optionalNullable(
    z.number({ error: maxEntriesMessage }).check(
      z.int(maxEntriesMessage),
      z.positive(maxEntriesMessage),
    ),
  ),
  imageUrl: optionalUrl(),
  maxPlayersPerTeam: wholeCount("Max players per team must be an integer from 1 to 5", 1, 5, 3),
  maxForwards: wholeCount("Max forwards must be an integer from 1 to 5", 1, 5, 2),
  minDefenders: wholeCount("Min defenders must be an integer from 0 to 5", 0, 5, 1),
  salaryCap: positiveMoney("Salary cap must be positive", "Salary cap", MAX_MONEY, 50000),
  minEntries: optionalNullable(
    z.number({ error: minEntriesMessage }).check(
      z.int(minEntriesMessage),
      z.positive(minEntriesMessage),
    ),
  ),
  maxEntriesPerPerson: wholeCount(
    "Entries per person must be an integer from 1 to 100",
    1,
    100,
    1,
  ),
  /** Captains: the multiplier, 1.5–3 in steps of 0.1; null: off (absent: off, or unchanged). */
  captainMultiplier: preprocess(
    nullableNumberish,
    z.optional(z.nullable(
      z.number({ error: MULTIPLIER_RANGE }).check(z.refine(validMultiplier, MULTIPLIER_RANGE)),
    )),
  ),
  /** The status follows the clock (absent: on for a new competition, unchanged on an edit). */
  autoStatus: z.optional(z.boolean({ error: "Automatic status must be true or false" })),
  /** A status change against the clock is confirmed (needs `reason`). */
  force: z.optional(z.boolean({ error: "Force must be true or false" })),
  /** Why the admin changes the status (kept in the activity log, told to withdrawn winners). */
  reason: z.optional(
    z.string({ error: "Reason must be text" }).check(
      z.trim(),
      z.maxLength(300, "Must be at most 300 characters"),
    ),
  ),
}).check(
  z.refine((v) => !(typeof v.matchId === "number" && typeof v.roundId === "number"), {
    message: "A competition is on one match or on one round, not both.",
    path: ["roundId"],
  }),
  z.refine(
    (v) =>
      v.deadline !== undefined || typeof v.matchId === "number" || typeof v.roundId === "number",
    {
      message: "Deadline is required",
      path: ["deadline"],
      // Said together with the other fields' problems, as when the deadline was always required.
      when: (payload) =>
        typeof payload.value === "object" && payload.value !== null &&
        !payload.issues.some((issue) => issue.path?.[0] === "deadline"),
    },
  ),
  z.refine((v) => entryFeeProblem(v.entryFee, v.currency) === null, {
    error: (issue) => {
      const v = issue.input as { entryFee: number; currency: "USD" | "GBP" };
      return entryFeeProblem(v.entryFee, v.currency) ?? "Entry fee is too low";
    },
    path: ["entryFee"],
  }),
  z.refine((v) => v.minEntries == null || v.maxEntries == null || v.minEntries <= v.maxEntries, {
    message: "Min entries cannot be above max entries",
    path: ["minEntries"],
  }),
);

/** POST /api/admin/competitions/{id}/cancel body: why, told to every entrant. */
export const cancelCompetitionSchema = z.object({
  reason: requiredText("Please say why the competition is cancelled", 300),
});
export type CancelCompetitionInput = z.infer<typeof cancelCompetitionSchema>;

/** POST /api/admin/competitions/{id}/prizes body: an array of prize rows. */
export const prizeStructureInputSchema = z.array(
  z.object({
    position: requiredId("Position must be a positive integer"),
    prize: positiveMoney("Prize amount must be positive", "Prize amount"),
    competitionId: preprocess(numberish, z.optional(z.number().check(z.int(), z.positive()))),
  }),
  { error: "At least one prize position is required" },
).check(
  z.minLength(1, "At least one prize position is required"),
  z.refine(
    (rows) => new Set(rows.map((r) => r.position)).size === rows.length,
    "Prize positions must be unique",
  ),
);
export type PrizeStructureInput = z.infer<typeof prizeStructureInputSchema>;

/** POST/DELETE /api/admin/competitions/{id}/players body. */
export const playerIdsBodySchema = z.object({
  playerIds: z.array(requiredId("Player ids must be positive integers"), {
    error: "No Players Selected",
  }).check(
    z.minLength(1, "No Players Selected"),
    z.maxLength(1000, "At most 1000 players at once"),
  ),
});
export type PlayerIdsBody = z.infer<typeof playerIdsBodySchema>;
