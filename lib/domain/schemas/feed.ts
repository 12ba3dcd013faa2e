/** The body of `POST /api/feed/events`: one provider event or match status message. */
import * as z from "zod/mini";
import { EVENT_TYPES } from "@/lib/domain/types.ts";

/** Match status messages: kick-off, half time, second half, full time (with the score). */
export const FEED_STATUS_TYPES = ["KICK_OFF", "HALF_TIME", "SECOND_HALF", "FULL_TIME"] as const;
export type FeedStatusType = typeof FEED_STATUS_TYPES[number];

const id = (field: string) =>
  z.number({ error: `${field} must be a positive whole number` }).check(
    z.int(`${field} must be a positive whole number`),
    z.positive(`${field} must be a positive whole number`),
  );
const score = (field: string) =>
  z.number({ error: `${field} must be a whole number from 0 to 99` }).check(
    z.int(`${field} must be a whole number from 0 to 99`),
    z.gte(0, `${field} must be a whole number from 0 to 99`),
    z.lte(99, `${field} must be a whole number from 0 to 99`),
  );

export const feedMessageSchema = z.object({
  /** The provider's id of this event; a re-delivery with the same id changes nothing. */
  id: z.string({ error: "id is required" }).check(
    z.minLength(1, "id is required"),
    z.maxLength(100, "id must be at most 100 characters"),
  ),
  /** A correction sends the same id with a higher version (default 1). */
  version: z._default(id("version"), 1),
  /** true withdraws the event (its points are reversed). */
  withdrawn: z._default(z.boolean({ error: "withdrawn must be true or false" }), false),
  matchId: id("matchId"),
  type: z.enum([...EVENT_TYPES, ...FEED_STATUS_TYPES], {
    error: `type must be one of ${[...EVENT_TYPES, ...FEED_STATUS_TYPES].join(", ")}`,
  }),
  playerId: z.optional(id("playerId")),
  minute: z.optional(
    z.number({ error: "minute must be a whole number from 0 to 130" }).check(
      z.int("minute must be a whole number from 0 to 130"),
      z.gte(0, "minute must be a whole number from 0 to 130"),
      z.lte(130, "minute must be a whole number from 0 to 130"),
    ),
  ),
  description: z.optional(
    z.string().check(z.maxLength(500, "description must be at most 500 characters")),
  ),
  homeScore: z.optional(score("homeScore")),
  awayScore: z.optional(score("awayScore")),
}).check(
  z.refine((m) => (FEED_STATUS_TYPES as readonly string[]).includes(m.type) || !!m.playerId, {
    message: "playerId is required for a game event",
    path: ["playerId"],
  }),
  z.refine(
    (m) => m.type !== "FULL_TIME" || (m.homeScore !== undefined && m.awayScore !== undefined),
    { message: "FULL_TIME needs homeScore and awayScore", path: ["homeScore"] },
  ),
);
export type FeedMessage = z.infer<typeof feedMessageSchema>;
