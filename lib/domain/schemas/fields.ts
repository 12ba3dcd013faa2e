/**
 * The field schemas every input schema is built from (numbers may arrive as numeric strings
 * from form fields, blanks mean missing), and `zodIssues` for error answers.
 * Messages are the product's agreed texts, word for word; a required field that is missing,
 * null or blank gets its own message (never zod's "Required"/"Invalid input"). Written with
 * `zod/mini`, whose functional API tree-shakes, so the islands that validate with these ship a
 * small part of zod.
 */
import * as z from "zod/mini";
import "@/lib/domain/zod_english.ts";
import { InvalidInputError, type Issue } from "@/lib/domain/errors.ts";
import { roundMoney } from "@/lib/domain/format.ts";

/** `fn` runs on the raw input, then `schema` validates its result (zod classic's `preprocess`). */
export function preprocess<S extends z.ZodMiniType>(fn: (v: unknown) => unknown, schema: S) {
  return z.pipe(z.transform(fn), schema);
}

/** A missing (undefined) value becomes null. */
export const undefinedToNull = <T>(v: T | undefined): T | null => v ?? null;

/** "" and null become undefined, so optional fields and defaults treat them as missing. */
export function blankToUndefined(v: unknown): unknown {
  if (v === null) return undefined;
  if (typeof v === "string" && v.trim() === "") return undefined;
  return v;
}

/** A plain decimal number written as text: "12", "-3", "1.50", ".5", "2e3" (no hex, no "Infinity"). */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A decimal string as a number (NaN for any other text, so zod refuses it). */
export function decimalText(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : NaN;
}

/** Numeric strings become numbers; blanks become undefined; anything else is left to zod. */
export function numberish(v: unknown): unknown {
  const b = blankToUndefined(v);
  return typeof b === "string" ? decimalText(b) : b;
}

/** Like numberish, but null stays null (for nullable fields where null is a value). */
export function nullableNumberish(v: unknown): unknown {
  if (v === null) return null;
  if (typeof v === "string" && v.trim() === "") return null;
  return typeof v === "string" ? decimalText(v) : v;
}

/** A number that may be missing, blank or null (all → null); numeric strings are accepted. */
export function optionalNullable<S extends z.ZodMiniType<number>>(schema: S) {
  return z.pipe(
    preprocess(nullableNumberish, z.optional(z.nullable(schema))),
    z.transform(undefinedToNull),
  );
}

/** A trimmed string that must not be blank. */
export function requiredText(message: string, max = 200) {
  return z.string({ error: message }).check(
    z.trim(),
    z.minLength(1, message),
    z.maxLength(max, `Must be at most ${max} characters`),
  );
}

/** An optional trimmed string; blank or null becomes null. */
export function optionalText(max = 1000) {
  const text = z.string().check(z.trim(), z.maxLength(max, `Must be at most ${max} characters`));
  return z.pipe(preprocess(blankToUndefined, z.optional(text)), z.transform(undefinedToNull));
}

/** An optional URL (http(s) or a site path); blank or null becomes null. */
export function optionalUrl() {
  const url = z.string().check(
    z.trim(),
    z.maxLength(2000),
    z.refine(
      // Never a backslash: browsers read /\host and http:\\host as another site.
      (s) => !s.includes("\\") && (/^https?:\/\/\S+$/i.test(s) || /^\/(?!\/)\S*$/.test(s)),
      "Must be an http(s) URL or a path starting with /",
    ),
  );
  return z.pipe(preprocess(blankToUndefined, z.optional(url)), z.transform(undefinedToNull));
}

/** A positive integer id; missing, blank or invalid gives `message`. */
export function requiredId(message: string) {
  return preprocess(
    numberish,
    z.number({ error: message }).check(z.int(message), z.positive(message)),
  );
}

/** The largest amount a money field takes: decimal(10,2). */
export const MAX_MONEY = 99_999_999.99;
/** The largest entry fee: the most a card payment may be (99,999,999 minor units). */
export const MAX_ENTRY_FEE = 999_999.99;

/**
 * An amount rounded to cents that must be at least 0.01 after rounding (`message` otherwise)
 * and at most `max` (`${label} must be at most …`); a missing or blank one is `fallback` if given.
 */
export function positiveMoney(message: string, label: string, max = MAX_MONEY, fallback?: number) {
  const amount = z.number({ error: message }).check(
    z.positive(message),
    z.lte(max, `${label} must be at most ${max}`),
  );
  return preprocess(
    (v) => {
      const n = numberish(v);
      return typeof n === "number" && Math.abs(n) < 1e15 ? roundMoney(n) : n;
    },
    fallback === undefined ? amount : z._default(amount, fallback),
  );
}

/** A whole count within [min, max], defaulting to `fallback` when missing. */
export function wholeCount(message: string, min: number, max: number, fallback: number) {
  const count = z.number({ error: message }).check(
    z.int(message),
    z.gte(min, message),
    z.lte(max, message),
  );
  return preprocess(numberish, z._default(count, fallback));
}

/** Dates are kept within four-digit years, so their ISO strings sort as the dates do. */
export const MIN_DATE = new Date("1970-01-01T00:00:00.000Z");
export const MAX_DATE = new Date("9999-12-31T23:59:59.999Z");

/**
 * A date-time (string, number or Date) that must be valid (`message` otherwise) and within the
 * years 1970 to 9999; output is an ISO string.
 */
export function requiredDate(message: string, label: string) {
  const range = `${label} must be between the years 1970 and 9999`;
  const date = preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" || typeof b === "number" ? new Date(b) : b;
    },
    z.date({ error: message }).check(z.gte(MIN_DATE, range), z.lte(MAX_DATE, range)),
  );
  return z.pipe(date, z.transform((d: Date) => d.toISOString()));
}

/** A boolean flag; accepts "true"/"false" strings and defaults to false. */
export const flag = preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : blankToUndefined(v)),
  z._default(z.boolean({ error: "Must be true or false" }), false),
);

export const validEmail = "Please provide a valid email";
/** A trimmed, valid e-mail address. */
export const email = preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z.email({ error: validEmail }).check(z.maxLength(254, validEmail)),
);

/** The largest count a statistic takes (season totals included). */
export const MAX_STAT = 9999;

/** A count from 0 to MAX_STAT (numeric strings allowed), with messages naming `label`. */
export function statCount(label: string) {
  const message = `${label} must be a whole number of at least 0`;
  return preprocess(
    numberish,
    z.number({ error: message }).check(
      z.int(message),
      z.gte(0, message),
      z.lte(MAX_STAT, `${label} must be at most ${MAX_STAT}`),
    ),
  );
}

/** A zod error (from zod/mini or classic) as the `issues` of an InvalidInputError. */
export function zodIssues(error: z.core.$ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
    message: issue.message,
  }));
}

/** Validates an already decoded value; throws InvalidInputError carrying the zod issues. */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new InvalidInputError(issues[0]?.message ?? "Invalid request", issues);
}
