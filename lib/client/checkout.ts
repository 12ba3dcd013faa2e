/**
 * The browser side of the checkout: the calls of the payment flow and the
 * session-storage keys that keep the e-mail and display name between steps.
 */
import type { Competition, OpenedPayment } from "@/lib/domain/types.ts";
import { apiFetch } from "@/lib/client/api.ts";
import { issuesToErrors } from "@/lib/client/form_errors.ts";
import { getUserEntries } from "@/lib/client/user_entries.ts";
import { notifySettingsPath } from "@/lib/client/notifications.ts";

export const PAYMENT_EMAIL_KEY = "payment_email";
export const TEAM_NAME_KEY = "team_name";

/** What the checkout shows and checks of its competition. */
export type CheckoutCompetition = Pick<
  Competition,
  | "id"
  | "name"
  | "entryFee"
  | "currency"
  | "prizePool"
  | "prizeType"
  | "customPrizeDescription"
  | "status"
  | "deadline"
  | "maxEntries"
  | "currentEntries"
  | "maxEntriesPerPerson"
  | "cancelReason"
>;

/** Which of the payer's entries this one is, of how many one person may hold. */
export interface EntryCount {
  number: number;
  allowed: number;
}

/** What POST /api/create-payment-intent answers. */
export type PaymentIntentAnswer = OpenedPayment;

export interface CheckoutDetails {
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  /** The captains chosen in the builder (competitions with captains). */
  captainId?: number;
  viceCaptainId?: number;
}

/** Opens a payment for the picks; the server checks the competition is still open. */
export function createPaymentIntent(details: CheckoutDetails): Promise<PaymentIntentAnswer> {
  return apiFetch<PaymentIntentAnswer>("/api/create-payment-intent", {
    method: "POST",
    json: details,
  });
}

/**
 * Which entry a new one by `email` would be, of how many one person may hold: the server counts
 * the person's entries (any spelling of their address) among those this browser holds the edit
 * secrets of, so typing someone else's address tells nothing about them.
 */
export async function fetchEntryCount(competitionId: number, email: string): Promise<EntryCount> {
  const editTokens = getUserEntries()
    .filter((e) => e.competitionId === competitionId && e.editToken)
    .map((e) => e.editToken!);
  const answer = await apiFetch<{ entryNumber: number; entriesAllowed: number }>(
    `/api/competitions/${competitionId}/entry-count`,
    { method: "POST", json: { email, editTokens } },
  );
  return { number: answer.entryNumber, allowed: answer.entriesAllowed };
}

/** Test mode only: pays the intent with a test card (402 with the decline message). */
export function confirmTestPayment(paymentIntentId: string, cardNumber: string): Promise<unknown> {
  return apiFetch("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber },
  });
}

/** Turns the paid intent into the entry; resolves to its public team ID and edit secret. */
export async function createEntry(
  details: CheckoutDetails & { stripePaymentId: string },
): Promise<{ teamId: string; editToken: string | null }> {
  const answer = await apiFetch<
    { teamId?: string; editToken?: string | null; entry?: { teamId?: string } }
  >("/api/entries", { method: "POST", json: details });
  const teamId = answer?.teamId ?? answer?.entry?.teamId;
  if (!teamId) throw new Error("The entry answer has no teamId");
  return { teamId, editToken: answer?.editToken ?? null };
}

/** Records the e-mail opt-ins ticked at checkout for the new entry (its consent, from checkout). */
export function saveCheckoutOptIns(
  editToken: string,
  optIns: { deadlineEmail: boolean; resultEmail: boolean },
): Promise<unknown> {
  return apiFetch(notifySettingsPath(editToken, "checkout"), { method: "PUT", json: optIns });
}

function storage(kind: "sessionStorage" | "localStorage"): Storage | null {
  try {
    return typeof globalThis[kind] === "undefined" ? null : globalThis[kind];
  } catch {
    return null;
  }
}

/** The display name and e-mail remembered in this browser for the next entry. */
const REMEMBERED_KEY = "checkout_contact";

function remembered(): { email: string; teamName: string } {
  try {
    const value = JSON.parse(storage("localStorage")?.getItem(REMEMBERED_KEY) ?? "{}");
    return {
      email: typeof value?.email === "string" ? value.email : "",
      teamName: typeof value?.teamName === "string" ? value.teamName : "",
    };
  } catch {
    return { email: "", teamName: "" };
  }
}

/**
 * The e-mail and display name to start the form with: the ones of this checkout's session,
 * else the ones remembered from this browser's last entry ("" when none).
 */
export function loadCheckoutContact(): { email: string; teamName: string } {
  const session = storage("sessionStorage");
  const kept = remembered();
  return {
    email: session?.getItem(PAYMENT_EMAIL_KEY) || kept.email,
    teamName: session?.getItem(TEAM_NAME_KEY) || kept.teamName,
  };
}

/** Keeps the e-mail and display name for the payment step and for this browser's next entry. */
export function saveCheckoutContact(email: string, teamName: string): void {
  storage("sessionStorage")?.setItem(PAYMENT_EMAIL_KEY, email);
  storage("sessionStorage")?.setItem(TEAM_NAME_KEY, teamName);
  try {
    storage("localStorage")?.setItem(REMEMBERED_KEY, JSON.stringify({ email, teamName }));
  } catch {
    // Storage full or blocked: the form simply starts empty next time.
  }
}

/** Forgets the session's copy after a successful payment (the remembered one stays). */
export function clearCheckoutContact(): void {
  storage("sessionStorage")?.removeItem(PAYMENT_EMAIL_KEY);
  storage("sessionStorage")?.removeItem(TEAM_NAME_KEY);
}

/** The first message per top-level field of zod or API issues, for `fields` only: `{ email: "…" }`. */
export function fieldErrors<F extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  fields: readonly F[],
): Partial<Record<F, string>> {
  const all = issuesToErrors(issues);
  const out: Partial<Record<F, string>> = {};
  for (const field of fields) if (Object.hasOwn(all, field)) out[field] = all[field];
  return out;
}
