/**
 * Input schemas of My account: the sign-in link request, spend limits, a break and
 * self-exclusion. Numbers may come as text (the page's forms) or as JSON numbers (the API).
 */
import * as z from "zod/mini";
import { email, nullableNumberish, preprocess } from "@/lib/domain/schemas/fields.ts";
import { BREAK_MAX_HOURS, BREAK_MIN_HOURS, EXCLUSION_PERIODS } from "@/lib/domain/limits.ts";

/** POST /api/account/sign-in-link */
export const signInLinkSchema = z.object({ email });

/** POST /api/account/session: the token of a sign-in link. */
export const signInSchema = z.object({
  token: z.string({ error: "token is required" }).check(
    z.regex(/^[\w-]{16,128}$/, "token is not a sign-in link's token"),
  ),
});

/** A limit in major units (dollars), cents at most; blank or null: no limit; absent: unchanged. */
const limitAmount = preprocess(
  nullableNumberish,
  z.optional(z.nullable(
    z.number({ error: "Limit must be an amount like 20 or 20.50" }).check(
      z.gte(1, "Limit must be at least 1.00"),
      z.lte(100_000, "Limit must be at most 100,000.00"),
      z.refine(
        (n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
        "Limit has at most 2 decimals",
      ),
    ),
  )),
);

/** PUT /api/account/limits */
export const limitsSchema = z.object({
  daily: limitAmount,
  weekly: limitAmount,
  monthly: limitAmount,
});

/** POST /api/account/break */
export const breakSchema = z.object({
  hours: preprocess(
    nullableNumberish,
    z.number({ error: "hours must be a number of hours" }).check(
      z.int("hours must be a whole number of hours"),
      z.gte(BREAK_MIN_HOURS, "A break lasts at least 24 hours"),
      z.lte(BREAK_MAX_HOURS, "A break lasts at most 6 weeks (1008 hours)"),
    ),
  ),
});

/** POST /api/account/self-exclusion: a period, and `confirm` since it cannot be undone. */
export const exclusionSchema = z.object({
  period: z.enum(Object.keys(EXCLUSION_PERIODS) as ["6m", "1y", "5y"], {
    error: "period must be 6m, 1y or 5y",
  }),
  confirm: preprocess(
    (v) => v === "on" || v === "true" ? true : v,
    z.literal(true, { error: "confirm must be true: self-exclusion cannot be undone early" }),
  ),
});

/** POST /api/admin/self-exclusions: a regulator's CSV file (columns email, until). */
export const exclusionFileSchema = z.object({
  content: z.string({ error: "content must be the CSV file's text" }).check(
    z.minLength(1, "content is empty"),
  ),
});
