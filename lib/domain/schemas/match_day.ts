/**
 * Input schemas of match day: player performances and game events.
 * Built from the field schemas of `fields.ts` (messages, zod/mini).
 */
import * as z from "zod/mini";
import { EVENT_TYPES, POSITIONS } from "@/lib/domain/types.ts";
import {
  blankToUndefined,
  flag,
  MAX_STAT,
  numberish,
  optionalNullable,
  optionalText,
  preprocess,
  requiredId,
  statCount,
  wholeCount,
} from "@/lib/domain/schemas/fields.ts";

/**
 * One performance. Out-of-range values are errors, never clamped;
 * missing counts are 0. Bonus: any positive value becomes 3. `player.position` may ride along
 * (the server ignores it); other extra fields (totalPoints, …) are dropped.
 */
export const performanceInputSchema = z.object({
  playerId: requiredId("Player is required"),
  minutesPlayed: wholeCount("Minutes must be between 0 and 90", 0, 90, 0),
  goals: z._default(statCount("Goals"), 0),
  assists: z._default(statCount("Assists"), 0),
  saves: z._default(statCount("Saves"), 0),
  goalsConceded: z._default(statCount("Goals conceded"), 0),
  penaltySaves: z._default(statCount("Penalty saves"), 0),
  penaltyMisses: z._default(statCount("Penalty misses"), 0),
  ownGoals: z._default(statCount("Own goals"), 0),
  yellowCards: wholeCount("Yellow cards must be between 0 and 2", 0, 2, 0),
  redCard: flag,
  cleanSheet: flag,
  bonus: z.pipe(
    preprocess(
      numberish,
      z._default(
        z.number({ error: "Bonus must be 0 or more" }).check(
          z.gte(0, "Bonus must be 0 or more"),
          z.lte(MAX_STAT, `Bonus must be at most ${MAX_STAT}`),
        ),
        0,
      ),
    ),
    z.transform((n: number) => (n > 0 ? 3 : 0)),
  ),
  player: z.optional(z.object({ position: z.optional(z.enum(POSITIONS)) })),
});
export type PerformanceInput = z.infer<typeof performanceInputSchema>;

/** POST /api/admin/competitions/{id}/performances body; a player may appear only once. */
export const performancesBodySchema = z.object({
  performances: z.array(performanceInputSchema, { error: "Performances must be a list" }).check(
    z.maxLength(1000, "At most 1000 performances at once"),
    z.refine(
      (list) => new Set(list.map((p) => p.playerId)).size === list.length,
      "Each player may appear only once",
    ),
  ),
});
export type PerformancesBody = z.infer<typeof performancesBodySchema>;

const minuteMessage = "Minute must be a whole number from 0 to 130";
/** POST /api/admin/competitions/{id}/events body. */
export const gameEventInputSchema = z.object({
  playerId: requiredId("Player is required"),
  eventType: preprocess(
    blankToUndefined,
    z.enum(EVENT_TYPES, {
      error: (iss) => iss.input === undefined ? "Event type is required" : "Invalid event type",
    }),
  ),
  description: optionalText(500),
  minute: optionalNullable(
    z.number({ error: minuteMessage }).check(
      z.int(minuteMessage),
      z.gte(0, minuteMessage),
      z.lte(130, minuteMessage),
    ),
  ),
});
