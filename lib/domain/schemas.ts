/**
 * Input schemas shared by the API handlers and the island forms, with the SPEC §5 messages
 * word for word. A required field that is missing, null or blank gets its SPEC message (never
 * zod's "Required"/"Invalid input"). Numbers may arrive as numeric strings (form fields).
 */
import { z } from "zod";
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

/** A trimmed string that must not be blank. */
function requiredText(message: string, max = 200) {
  return z.string({ error: message }).trim().min(1, message).max(
    max,
    `Must be at most ${max} characters`,
  );
}

/** An optional trimmed string; blank or null becomes null. */
function optionalText(max = 1000) {
  return z.preprocess(
    blankToUndefined,
    z.string().trim().max(max, `Must be at most ${max} characters`).optional(),
  ).transform((v) => v ?? null);
}

/** An optional URL (http(s) or a site path); blank or null becomes null. */
function optionalUrl() {
  return z.preprocess(
    blankToUndefined,
    z.string().trim().max(2000).refine(
      (s) => /^https?:\/\/\S+$/i.test(s) || /^\/(?!\/)\S*$/.test(s),
      "Must be an http(s) URL or a path starting with /",
    ).optional(),
  ).transform((v) => v ?? null);
}

/** A positive integer id; missing, blank or invalid gives `message`. */
function requiredId(message: string) {
  return z.preprocess(numberish, z.number({ error: message }).int(message).positive(message));
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
  const amount = z.number({ error: message }).positive(message)
    .max(max, `${label} must be at most ${max}`);
  return z.preprocess(
    (v) => {
      const n = numberish(v);
      return typeof n === "number" && Math.abs(n) < 1e15 ? roundMoney(n) : n;
    },
    fallback === undefined ? amount : amount.default(fallback),
  );
}

/** A whole count within [min, max], defaulting to `fallback` when missing. */
function wholeCount(message: string, min: number, max: number, fallback: number) {
  return z.preprocess(
    numberish,
    z.number({ error: message }).int(message).min(min, message).max(max, message).default(
      fallback,
    ),
  );
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
  return z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" || typeof b === "number" ? new Date(b) : b;
    },
    z.date({ error: message }).min(MIN_DATE, range).max(MAX_DATE, range),
  ).transform((d) => d.toISOString());
}

/** A boolean flag; accepts "true"/"false" strings and defaults to false. */
const flag = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : blankToUndefined(v)),
  z.boolean({ error: "Must be true or false" }).default(false),
);

const validEmail = "Please provide a valid email";
/** A trimmed, valid e-mail address. */
const email = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z.email({ error: validEmail }).max(254, validEmail),
);

// ---------- public forms and calls ----------

/** The payment (checkout) form: display name 2..30 and a confirmed e-mail. */
export const paymentFormSchema = z.object({
  email,
  confirmEmail: email,
  teamName: z.string({ error: "Display name must be at least 2 characters" }).trim()
    .min(2, "Display name must be at least 2 characters")
    .max(30, "Display name cannot exceed 30 characters"),
}).refine((v) => v.email.toLowerCase() === v.confirmEmail.toLowerCase(), {
  message: "Emails do not match",
  path: ["confirmEmail"],
});
export type PaymentFormValues = z.infer<typeof paymentFormSchema>;

const teamNameMin = "Team name must be at least 3 characters";
/** Server team name: 3..30 characters, trimmed. */
const serverTeamName = z.string({ error: teamNameMin }).trim().min(3, teamNameMin)
  .max(30, "Team name must be at most 30 characters");

/** The most picks a request may carry (a team has 5; the rules say so with a clear message). */
const MAX_PICKS = 50;
const playerIdList = z.array(requiredId("Player ids must be positive integers"), {
  error: "You must select at least 2 players",
}).max(MAX_PICKS, `You can select at most ${MAX_PICKS} players`);

/**
 * A payment intent id as the providers issue them (`pi_…`: letters, digits, `_` and `-`), so a
 * hostile id is refused here and never reaches the provider's URL or a store key.
 */
const paymentIdText = (message: string) =>
  z.string({ error: message }).trim().max(200, "Invalid payment id").regex(
    /^[\w-]+$/,
    "Invalid payment id",
  );

/** POST /api/entries body (SPEC §5 "Server entry schema"). */
export const entryCreateSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email,
  teamName: serverTeamName,
  playerIds: playerIdList.min(2, "You must select at least 2 players"),
  stripePaymentId: z.preprocess(blankToUndefined, paymentIdText("Invalid payment id").optional()),
});
export type EntryCreateInput = z.infer<typeof entryCreateSchema>;

/**
 * POST /api/create-payment-intent body. The optional checkout details use the SERVER entry
 * rules (team name 3..30), so a name the entry would refuse is refused before anyone pays.
 */
export const paymentIntentSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email: z.preprocess(blankToUndefined, email.optional()),
  teamName: z.preprocess(blankToUndefined, serverTeamName.optional()),
  playerIds: playerIdList.optional(),
});
export type PaymentIntentInput = z.infer<typeof paymentIntentSchema>;

/** POST /api/test-payments/confirm body (test mode only). */
export const testPaymentConfirmSchema = z.object({
  paymentIntentId: z.preprocess(
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
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(
    1000,
    "Password is too long",
  ),
});
export type LoginInput = z.infer<typeof loginSchema>;

const emailRequired = "Please enter an email address to send the test email to.";
/** POST /api/test-email body. */
export const testEmailSchema = z.object({
  email: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ error: emailRequired }).min(1, emailRequired).pipe(
      z.email({ error: validEmail }),
    ),
  ),
});
export type TestEmailInput = z.infer<typeof testEmailSchema>;

// ---------- admin: competitions and prizes ----------

/** Competition create/update body (SPEC §3, §5 "Competition form", §9 defaults). */
export const competitionInputSchema = z.object({
  name: requiredText("Name is required"),
  description: optionalText(),
  matchId: z.preprocess(
    nullableNumberish,
    z.number({ error: "Match must be a positive integer" }).int().positive().nullable()
      .optional(),
  ).transform((v) => v ?? null),
  league: z.enum(LEAGUES, { error: "League is required" }),
  entryFee: positiveMoney("Entry fee must be positive", "Entry fee", MAX_ENTRY_FEE),
  prizePool: positiveMoney("Prize pool must be positive", "Prize pool"),
  currency: z.preprocess(
    blankToUndefined,
    z.enum(CURRENCIES, { error: "Currency must be USD or GBP" }).default("USD"),
  ),
  prizeType: z.preprocess(
    blankToUndefined,
    z.enum(PRIZE_TYPES, { error: "Prize type must be CASH or NON_CASH" }).default("CASH"),
  ),
  customPrizeDescription: optionalText(),
  deadline: requiredDate("Deadline is required", "Deadline"),
  status: z.preprocess(
    blankToUndefined,
    z.enum(COMPETITION_STATUSES, { error: "Status must be UPCOMING, LIVE or COMPLETED" })
      .default("UPCOMING"),
  ),
  maxEntries: z.preprocess(
    nullableNumberish,
    z.number({ error: "Max entries must be a positive integer" })
      .int("Max entries must be a positive integer")
      .positive("Max entries must be a positive integer").nullable().optional(),
  ).transform((v) => v ?? null),
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
    competitionId: z.preprocess(numberish, z.number().int().positive().optional()),
  }),
  { error: "At least one prize position is required" },
).min(1, "At least one prize position is required").refine(
  (rows) => new Set(rows.map((r) => r.position)).size === rows.length,
  "Prize positions must be unique",
);
export type PrizeStructureInput = z.infer<typeof prizeStructureInputSchema>;

// ---------- admin: matches, teams, players ----------

const score = z.preprocess(
  nullableNumberish,
  z.number({ error: "Scores must be whole numbers of at least 0" })
    .int("Scores must be whole numbers of at least 0")
    .min(0, "Scores must be whole numbers of at least 0").nullable().optional(),
).transform((v) => v ?? null);

/** Match create/update body (SPEC §5 "Match form"). */
export const matchInputSchema = z.object({
  homeTeamId: requiredId("Home team is required"),
  awayTeamId: requiredId("Away team is required"),
  league: z.enum(LEAGUES, { error: "League is required" }),
  kickoffTime: requiredDate("Kickoff time is required", "Kickoff time"),
  stadium: requiredText("Stadium is required"),
  homeScore: score,
  awayScore: score,
  result: z.preprocess(blankToUndefined, z.enum(MATCH_RESULTS).optional()),
  status: z.preprocess(blankToUndefined, z.enum(MATCH_STATUSES).optional()),
}).refine((m) => m.homeTeamId !== m.awayTeamId, {
  message: "Home team and away team cannot be the same",
  path: ["awayTeamId"],
});
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
const statCount = (label: string) =>
  z.preprocess(
    numberish,
    z.number({ error: `${label} must be a whole number of at least 0` })
      .int(`${label} must be a whole number of at least 0`)
      .min(0, `${label} must be a whole number of at least 0`)
      .max(MAX_STAT, `${label} must be at most ${MAX_STAT}`),
  );

const playerFields = {
  name: requiredText(playerRequired, 100),
  position: z.enum(POSITIONS, { error: playerRequired }),
  teamId: requiredId("Team is required"),
  salary: z.preprocess(
    numberish,
    z.number({ error: salaryMin }).min(100, salaryMin).max(MAX_MONEY, salaryMax),
  ).transform(roundMoney),
  imageUrl: optionalUrl(),
  goals: statCount("Goals"),
  assists: statCount("Assists"),
  cleanSheets: statCount("Clean sheets"),
};

/** POST /api/admin/players body; salary defaults to 1000 and the stats to 0. */
export const playerInputSchema = z.object({
  ...playerFields,
  salary: z.preprocess(
    numberish,
    z.number({ error: salaryMin }).min(100, salaryMin).max(MAX_MONEY, salaryMax).default(1000),
  ).transform(roundMoney),
  goals: playerFields.goals.default(0),
  assists: playerFields.assists.default(0),
  cleanSheets: playerFields.cleanSheets.default(0),
});
export type PlayerInput = z.infer<typeof playerInputSchema>;

/** PATCH /api/admin/players/{id} body: any subset of the player fields (no defaults applied). */
export const playerPatchSchema = z.object(playerFields).partial().refine(
  (p) => Object.values(p).some((v) => v !== undefined),
  "No fields to update",
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
  goals: statCount("Goals").default(0),
  assists: statCount("Assists").default(0),
  saves: statCount("Saves").default(0),
  goalsConceded: statCount("Goals conceded").default(0),
  penaltySaves: statCount("Penalty saves").default(0),
  penaltyMisses: statCount("Penalty misses").default(0),
  ownGoals: statCount("Own goals").default(0),
  yellowCards: wholeCount("Yellow cards must be between 0 and 2", 0, 2, 0),
  redCard: flag,
  cleanSheet: flag,
  bonus: z.preprocess(
    numberish,
    z.number({ error: "Bonus must be 0 or more" }).min(0, "Bonus must be 0 or more")
      .max(MAX_STAT, `Bonus must be at most ${MAX_STAT}`).default(0),
  ).transform((n) => (n > 0 ? 3 : 0)),
  player: z.object({ position: z.enum(POSITIONS).optional() }).optional(),
});
export type PerformanceInput = z.infer<typeof performanceInputSchema>;

/** POST /api/admin/competitions/{id}/performances body; a player may appear only once. */
export const performancesBodySchema = z.object({
  performances: z.array(performanceInputSchema, { error: "Performances must be a list" }).max(
    1000,
    "At most 1000 performances at once",
  ).refine(
    (list) => new Set(list.map((p) => p.playerId)).size === list.length,
    "Each player may appear only once",
  ),
});
export type PerformancesBody = z.infer<typeof performancesBodySchema>;

/** POST /api/admin/competitions/{id}/events body. */
export const gameEventInputSchema = z.object({
  playerId: requiredId("Player is required"),
  eventType: z.preprocess(
    blankToUndefined,
    z.enum(EVENT_TYPES, {
      error: (iss) => iss.input === undefined ? "Event type is required" : "Invalid event type",
    }),
  ),
  description: optionalText(500),
  minute: z.preprocess(
    nullableNumberish,
    z.number({ error: "Minute must be a whole number from 0 to 130" })
      .int("Minute must be a whole number from 0 to 130")
      .min(0, "Minute must be a whole number from 0 to 130")
      .max(130, "Minute must be a whole number from 0 to 130").nullable().optional(),
  ).transform((v) => v ?? null),
});
export type GameEventInput = z.infer<typeof gameEventInputSchema>;

/** POST/DELETE /api/admin/competitions/{id}/players body. */
export const playerIdsBodySchema = z.object({
  playerIds: z.array(requiredId("Player ids must be positive integers"), {
    error: "No Players Selected",
  }).min(1, "No Players Selected").max(1000, "At most 1000 players at once"),
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

/** A ZodError as the `issues` of a 400 answer (lib/http/errors.ts). */
export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== "symbol"),
    message: issue.message,
  }));
}
