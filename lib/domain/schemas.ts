/**
 * Input schemas shared by the API handlers and the island forms, with the SPEC §5 messages
 * word for word. A required field that is missing, null or blank gets its SPEC message (never
 * zod's "Required"/"Invalid input"). Numbers may arrive as numeric strings (form fields).
 * Written with `zod/mini`: its functional API tree-shakes, so the islands that validate with
 * these schemas ship a small part of zod (zod classic's method chains pull in all of it).
 */
import * as z from "zod/mini";
import "./zod_english.ts";
import type { Issue } from "../http/errors.ts";
import { roundMoney } from "./format.ts";
import {
  COMPETITION_STATUSES,
  CURRENCIES,
  EVENT_TYPES,
  LEAGUES,
  MATCH_RESULTS,
  MATCH_STATUSES,
  POSITIONS,
  PRIZE_TYPES,
} from "./types.ts";

// ---------- field helpers ----------

/** `fn` runs on the raw input, then `schema` validates its result (zod classic's `preprocess`). */
function preprocess<S extends z.ZodMiniType>(fn: (v: unknown) => unknown, schema: S) {
  return z.pipe(z.transform(fn), schema);
}

/** A missing (undefined) value becomes null. */
const undefinedToNull = <T>(v: T | undefined): T | null => v ?? null;

/** "" and null become undefined, so optional fields and defaults treat them as missing. */
function blankToUndefined(v: unknown): unknown {
  if (v === null) return undefined;
  if (typeof v === "string" && v.trim() === "") return undefined;
  return v;
}

/** A plain decimal number written as text: "12", "-3", "1.50", ".5", "2e3" (no hex, no "Infinity"). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A decimal string as a number (NaN for any other text, so zod refuses it). */
function decimalText(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : NaN;
}

/** Numeric strings become numbers; blanks become undefined; anything else is left to zod. */
function numberish(v: unknown): unknown {
  const b = blankToUndefined(v);
  return typeof b === "string" ? decimalText(b) : b;
}

/** Like numberish, but null stays null (for nullable fields where null is a value). */
function nullableNumberish(v: unknown): unknown {
  if (v === null) return null;
  if (typeof v === "string" && v.trim() === "") return null;
  return typeof v === "string" ? decimalText(v) : v;
}

/** A number that may be missing, blank or null (all → null); numeric strings are accepted. */
function optionalNullable<S extends z.ZodMiniType<number>>(schema: S) {
  return z.pipe(
    preprocess(nullableNumberish, z.optional(z.nullable(schema))),
    z.transform(undefinedToNull),
  );
}

/** A trimmed string that must not be blank. */
function requiredText(message: string, max = 200) {
  return z.string({ error: message }).check(
    z.trim(),
    z.minLength(1, message),
    z.maxLength(max, `Must be at most ${max} characters`),
  );
}

/** An optional trimmed string; blank or null becomes null. */
function optionalText(max = 1000) {
  const text = z.string().check(z.trim(), z.maxLength(max, `Must be at most ${max} characters`));
  return z.pipe(preprocess(blankToUndefined, z.optional(text)), z.transform(undefinedToNull));
}

/** An optional URL (http(s) or a site path); blank or null becomes null. */
function optionalUrl() {
  const url = z.string().check(
    z.trim(),
    z.maxLength(2000),
    z.refine(
      (s) => /^https?:\/\/\S+$/i.test(s) || /^\/(?!\/)\S*$/.test(s),
      "Must be an http(s) URL or a path starting with /",
    ),
  );
  return z.pipe(preprocess(blankToUndefined, z.optional(url)), z.transform(undefinedToNull));
}

/** A positive integer id; missing, blank or invalid gives `message`. */
function requiredId(message: string) {
  return preprocess(
    numberish,
    z.number({ error: message }).check(z.int(message), z.positive(message)),
  );
}

/** The largest amount a money field takes: decimal(10,2) of SPEC §3. */
export const MAX_MONEY = 99_999_999.99;
/** The largest entry fee: the most a card payment may be (99,999,999 minor units). */
export const MAX_ENTRY_FEE = 999_999.99;

/**
 * An amount rounded to cents that must be at least 0.01 after rounding (`message` otherwise)
 * and at most `max` (`${label} must be at most …`); a missing or blank one is `fallback` if given.
 */
function positiveMoney(message: string, label: string, max = MAX_MONEY, fallback?: number) {
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
function wholeCount(message: string, min: number, max: number, fallback: number) {
  const count = z.number({ error: message }).check(
    z.int(message),
    z.gte(min, message),
    z.lte(max, message),
  );
  return preprocess(numberish, z._default(count, fallback));
}

/** Dates are kept within four-digit years, so their ISO strings sort as the dates do. */
const MIN_DATE = new Date("1970-01-01T00:00:00.000Z");
const MAX_DATE = new Date("9999-12-31T23:59:59.999Z");

/**
 * A date-time (string, number or Date) that must be valid (`message` otherwise) and within the
 * years 1970 to 9999; output is an ISO string.
 */
function requiredDate(message: string, label: string) {
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
const flag = preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : blankToUndefined(v)),
  z._default(z.boolean({ error: "Must be true or false" }), false),
);

const validEmail = "Please provide a valid email";
/** A trimmed, valid e-mail address. */
const email = preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z.email({ error: validEmail }).check(z.maxLength(254, validEmail)),
);

// ---------- public forms and calls ----------

const displayNameMin = "Display name must be at least 2 characters";
/** The payment (checkout) form: display name 2..30 and a confirmed e-mail. */
export const paymentFormSchema = z.object({
  email,
  confirmEmail: email,
  teamName: z.string({ error: displayNameMin }).check(
    z.trim(),
    z.minLength(2, displayNameMin),
    z.maxLength(30, "Display name cannot exceed 30 characters"),
  ),
}).check(
  z.refine((v) => v.email.toLowerCase() === v.confirmEmail.toLowerCase(), {
    message: "Emails do not match",
    path: ["confirmEmail"],
  }),
);
export type PaymentFormValues = z.infer<typeof paymentFormSchema>;

const teamNameMin = "Team name must be at least 3 characters";
/** Server team name: 3..30 characters, trimmed. */
const serverTeamName = z.string({ error: teamNameMin }).check(
  z.trim(),
  z.minLength(3, teamNameMin),
  z.maxLength(30, "Team name must be at most 30 characters"),
);

/** The most picks a request may carry (a team has 5; the rules say so with a clear message). */
const MAX_PICKS = 50;
const playerIdList = z.array(requiredId("Player ids must be positive integers"), {
  error: "You must select at least 2 players",
}).check(z.maxLength(MAX_PICKS, `You can select at most ${MAX_PICKS} players`));

/**
 * A payment intent id as the providers issue them (`pi_…`: letters, digits, `_` and `-`), so a
 * hostile id is refused here and never reaches the provider's URL or a store key.
 */
const paymentIdText = (message: string) =>
  z.string({ error: message }).check(
    z.trim(),
    z.maxLength(200, "Invalid payment id"),
    z.regex(/^[\w-]+$/, "Invalid payment id"),
  );

/** POST /api/entries body (SPEC §5 "Server entry schema"). */
export const entryCreateSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email,
  teamName: serverTeamName,
  playerIds: playerIdList.check(z.minLength(2, "You must select at least 2 players")),
  stripePaymentId: preprocess(blankToUndefined, z.optional(paymentIdText("Invalid payment id"))),
});
export type EntryCreateInput = z.infer<typeof entryCreateSchema>;

/**
 * POST /api/create-payment-intent body. The optional checkout details use the SERVER entry
 * rules (team name 3..30), so a name the entry would refuse is refused before anyone pays.
 */
export const paymentIntentSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email: preprocess(blankToUndefined, z.optional(email)),
  teamName: preprocess(blankToUndefined, z.optional(serverTeamName)),
  playerIds: z.optional(playerIdList),
});
export type PaymentIntentInput = z.infer<typeof paymentIntentSchema>;

/** POST /api/test-payments/confirm body (test mode only). */
export const testPaymentConfirmSchema = z.object({
  paymentIntentId: preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    paymentIdText("Payment intent is required"),
  ),
  cardNumber: requiredText("Card number is required", 40),
});
export type TestPaymentConfirmInput = z.infer<typeof testPaymentConfirmSchema>;

/** Luhn check of a card number of 12 to 19 digits; spaces and dashes are ignored. */
export function luhnValid(cardNumber: string): boolean {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** POST /api/admin/login body. */
export const loginSchema = z.object({
  username: requiredText("Username is required"),
  password: z.string({ error: "Password is required" }).check(
    z.minLength(1, "Password is required"),
    z.maxLength(1000, "Password is too long"),
  ),
  /** The second factor, when the admin has one: a 6-digit code or a recovery code. */
  code: z.optional(totpCode()),
});
export type LoginInput = z.infer<typeof loginSchema>;

function totpCode() {
  return z.string({ error: "Code is required" }).check(
    z.trim(),
    z.minLength(1, "Code is required"),
    z.maxLength(40, "Code is too long"),
  );
}

/** Bodies of the second-factor routes: a 6-digit code (or, to turn it off, a recovery code). */
export const totpCodeSchema = z.object({ code: totpCode() });

const emailRequired = "Please enter an email address to send the test email to.";
/** POST /api/test-email body. */
export const testEmailSchema = z.object({
  email: preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.pipe(
      z.string({ error: emailRequired }).check(z.minLength(1, emailRequired)),
      z.email({ error: validEmail }),
    ),
  ),
});
export type TestEmailInput = z.infer<typeof testEmailSchema>;

// ---------- admin: competitions and prizes ----------

const maxEntriesMessage = "Max entries must be a positive integer";
/** Competition create/update body (SPEC §3, §5 "Competition form", §9 defaults). */
export const competitionInputSchema = z.object({
  name: requiredText("Name is required"),
  description: optionalText(),
  matchId: optionalNullable(
    z.number({ error: "Match must be a positive integer" }).check(z.int(), z.positive()),
  ),
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
  deadline: requiredDate("Deadline is required", "Deadline"),
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
});
export type CompetitionInput = z.infer<typeof competitionInputSchema>;

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

// ---------- admin: matches, teams, players ----------

const scoreMessage = "Scores must be whole numbers of at least 0";
const score = optionalNullable(
  z.number({ error: scoreMessage }).check(z.int(scoreMessage), z.gte(0, scoreMessage)),
);

/** Match create/update body (SPEC §5 "Match form"). */
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
/** The largest count a statistic takes (season totals included). */
export const MAX_STAT = 9999;

/** A count from 0 to MAX_STAT (numeric strings allowed), with messages naming `label`. */
function statCount(label: string) {
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

/** PATCH /api/admin/players/{id} body: any subset of the player fields (no defaults applied). */
export const playerPatchSchema = z.partial(z.object(playerFields)).check(
  z.refine((p) => Object.values(p).some((v) => v !== undefined), "No fields to update"),
);
export type PlayerPatch = z.infer<typeof playerPatchSchema>;

// ---------- admin: performances, events, player selection ----------

/**
 * One performance (SPEC §5 "Performance inputs"). Out-of-range values are errors, never clamped;
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
export type GameEventInput = z.infer<typeof gameEventInputSchema>;

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

const wsCompetitionId = requiredId("Competition is required");
/** Messages a browser may send on /ws. */
export const wsClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("join"), competitionId: wsCompetitionId }),
  z.object({ type: z.literal("leave"), competitionId: wsCompetitionId }),
  z.object({ type: z.literal("ping") }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

/** A zod error (from zod/mini or classic) as the `issues` of a 400 answer (lib/http/errors.ts). */
export function zodIssues(error: z.core.$ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
    message: issue.message,
  }));
}
