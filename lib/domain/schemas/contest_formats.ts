/**
 * Input schema of the admin action that makes contests from templates
 * (POST /api/admin/contests-from-templates): one match (or round), a shared fee, the templates.
 */
import * as z from "zod/mini";
import { MAX_OPERATOR_SHARE_PERCENT } from "@/lib/domain/formats.ts";
import { CONTEST_TEMPLATES, CURRENCIES, PAYOUTS, POOL_MODES } from "@/lib/domain/types.ts";
import {
  blankToUndefined,
  MAX_ENTRY_FEE,
  numberish,
  optionalNullable,
  positiveMoney,
  preprocess,
  requiredDate,
  requiredId,
} from "@/lib/domain/schemas/fields.ts";

const shareMessage = `The operator's share must be from 0 to ${MAX_OPERATOR_SHARE_PERCENT} percent`;
const maxEntriesMessage = "Max entries must be an integer of at least 2";

/** One template: its format and what it changes from the base. */
export const templateSchema = z.object({
  format: z.enum(CONTEST_TEMPLATES, {
    error: "Format must be HEAD_TO_HEAD, FIFTY_FIFTY, TOURNAMENT or PRIVATE",
  }),
  entryFee: z.optional(positiveMoney("Entry fee must be positive", "Entry fee", MAX_ENTRY_FEE)),
  pool: preprocess(
    blankToUndefined,
    z.optional(z.enum(POOL_MODES, { error: "Pool must be GROWING or GUARANTEED" })),
  ),
  operatorSharePercent: preprocess(
    numberish,
    z.optional(
      z.number({ error: shareMessage }).check(
        z.gte(0, shareMessage),
        z.lte(MAX_OPERATOR_SHARE_PERCENT, shareMessage),
      ),
    ),
  ),
  prizePool: z.optional(positiveMoney("Prize pool must be positive", "Prize pool")),
  maxEntries: optionalNullable(
    z.number({ error: maxEntriesMessage }).check(
      z.int(maxEntriesMessage),
      z.gte(2, maxEntriesMessage),
      z.lte(1_000_000, "Max entries must be at most 1000000"),
    ),
  ),
  payout: z.optional(
    z.enum(PAYOUTS, { error: "Payout must be WINNER_TAKES_ALL, TOP_HALF or TIERED" }),
  ),
  private: z.optional(z.boolean({ error: "Private must be true or false" })),
  name: z.optional(
    z.string({ error: "Name must be text" }).check(
      z.trim(),
      z.maxLength(200, "Must be at most 200 characters"),
    ),
  ),
}).check(
  z.refine((t) => t.pool !== "GUARANTEED" || t.prizePool !== undefined, {
    message: "A guaranteed pool needs a positive prize pool",
    path: ["prizePool"],
  }),
);

/** The body: exactly one of matchId and roundId, the base fee, 1–10 templates. */
export const contestsFromTemplatesSchema = z.object({
  matchId: z.optional(requiredId("Match must be a positive integer")),
  roundId: z.optional(requiredId("Round must be a positive integer")),
  entryFee: positiveMoney("Entry fee must be positive", "Entry fee", MAX_ENTRY_FEE),
  currency: preprocess(
    blankToUndefined,
    z._default(z.enum(CURRENCIES, { error: "Currency must be USD or GBP" }), "USD"),
  ),
  /** Absent: the match's kick-off. */
  deadline: z.optional(requiredDate("Deadline is required", "Deadline")),
  templates: z.array(templateSchema, { error: "Choose at least one template" }).check(
    z.minLength(1, "Choose at least one template"),
    z.maxLength(10, "At most 10 templates at once"),
  ),
}).check(
  z.refine((b) => (b.matchId === undefined) !== (b.roundId === undefined), {
    message: "Give a matchId or a roundId (one of them)",
    path: ["matchId"],
  }),
);
export type ContestsFromTemplatesInput = z.infer<typeof contestsFromTemplatesSchema>;
