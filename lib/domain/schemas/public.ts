/**
 * Input schemas of the public site: the checkout form, entries, payments, the test e-mail, the
 * admin login and the live socket's messages.
 * Built from the field schemas of `fields.ts` (messages, zod/mini).
 */
import * as z from "zod/mini";
import {
  blankToUndefined,
  email,
  preprocess,
  requiredId,
  requiredText,
  validEmail,
} from "@/lib/domain/schemas/fields.ts";

/**
 * Characters that let one name pass for another on the leaderboard: controls (Cc), format
 * characters (Cf: zero-width, bidirectional overrides and isolates, U+061C, tags U+E0001–U+E007F),
 * every default-ignorable code point (variation selectors, U+E0000–U+E0FFF, the Hangul fillers
 * U+115F, U+1160, U+3164, U+FFA0), lone surrogates, and every separator but the plain space (no-break
 * and ideographic spaces, U+2028, U+2029). Plain spaces are allowed (and trimmed at the ends).
 */
const HIDDEN_CHARACTERS =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u061c\u115f\u1160\u3164\uffa0\u{e0000}-\u{e007f}]/u;
/** Whether `text` holds any of those characters (names people choose are refused with them). */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTERS.test(text);
}
const hiddenMessage = (label: string) =>
  `${label} cannot contain invisible, formatting, separator or filler characters (only letters, digits, symbols and plain spaces)`;
/** The message of a display name with such a character, the same in the form and the API. */
export const HIDDEN_CHARACTER_MESSAGE = hiddenMessage("Display name");
/**
 * The rules of a name people choose, shown to others (`label`: "Display name", "League name"):
 * 2..30 characters once trimmed, no hidden characters. One rule with one wording, checked by the
 * forms and by the server alike.
 */
export function chosenName(label: string) {
  const min = `${label} must be at least 2 characters`;
  return z.string({ error: min }).check(
    z.trim(),
    z.minLength(2, min),
    z.maxLength(30, `${label} cannot exceed 30 characters`),
    z.refine((name) => !hasHiddenCharacters(name), hiddenMessage(label)),
  );
}
/** The display name (the entry's teamName). */
const displayName = chosenName("Display name");

/** The payment (checkout) form: display name 2..30 and a confirmed e-mail. */
export const paymentFormSchema = z.object({
  email,
  confirmEmail: email,
  teamName: displayName,
}).check(
  z.refine((v) => v.email.toLowerCase() === v.confirmEmail.toLowerCase(), {
    message: "Emails do not match",
    path: ["confirmEmail"],
  }),
);
export type PaymentFormValues = z.infer<typeof paymentFormSchema>;

/** The most picks a request may carry (a team has 5; the rules say so with a clear message). */
const MAX_PICKS = 50;
const playerIdList = z.array(requiredId("Player ids must be positive integers"), {
  error: "You must select at least 2 players",
}).check(z.maxLength(MAX_PICKS, `You can select at most ${MAX_PICKS} players`));

/** The optional captain and vice-captain picks of a team (lib/domain/captain.ts checks them). */
const captaincyFields = {
  captainId: z.optional(requiredId("Captain must be a player id")),
  viceCaptainId: z.optional(requiredId("Vice-captain must be a player id")),
};

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

/** POST /api/entries body. */
export const entryCreateSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email,
  teamName: displayName,
  playerIds: playerIdList.check(z.minLength(2, "You must select at least 2 players")),
  stripePaymentId: preprocess(blankToUndefined, z.optional(paymentIdText("Invalid payment id"))),
  ...captaincyFields,
});
export type EntryCreateInput = z.infer<typeof entryCreateSchema>;

/**
 * POST /api/create-payment-intent body. The optional checkout details use the SERVER entry
 * rules (team name 3..30), so a name the entry would refuse is refused before anyone pays.
 */
export const paymentIntentSchema = z.object({
  competitionId: requiredId("Competition is required"),
  email: preprocess(blankToUndefined, z.optional(email)),
  teamName: preprocess(blankToUndefined, z.optional(displayName)),
  playerIds: z.optional(playerIdList),
  ...captaincyFields,
});
export type PaymentIntentInput = z.infer<typeof paymentIntentSchema>;

/** PUT /api/team-edits/{token} body: the changed team on the revision the visitor saw. */
export const teamEditSchema = z.object({
  teamName: displayName,
  playerIds: playerIdList.check(z.minLength(2, "You must select at least 2 players")),
  revision: z.int({ error: "Revision must be a whole number" }).check(
    z.minimum(0, "Revision must be a whole number"),
  ),
  ...captaincyFields,
});
export type TeamEditInput = z.infer<typeof teamEditSchema>;

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

/** POST /api/my-entries/email body: the address whose entries are e-mailed to it. */
export const findEntriesSchema = z.object({ email });
export type FindEntriesInput = z.infer<typeof findEntriesSchema>;

/** GET /api/my-entries `teamIds` query: up to 100 comma-separated team ids. */
export const teamIdListSchema = z.array(
  z.string().check(z.trim(), z.regex(/^[\w-]{1,40}$/, "Invalid team id")),
).check(z.maxLength(100, "At most 100 team ids at once"));

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
      z.string({ error: emailRequired }).check(
        z.minLength(1, emailRequired),
        z.maxLength(254, validEmail),
      ),
      z.email({ error: validEmail }),
    ),
  ),
});
export type TestEmailInput = z.infer<typeof testEmailSchema>;

const wsCompetitionId = requiredId("Competition is required");
/** Messages a browser may send on /ws. */
export const wsClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("join"), competitionId: wsCompetitionId }),
  z.object({ type: z.literal("leave"), competitionId: wsCompetitionId }),
  z.object({ type: z.literal("ping") }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;
