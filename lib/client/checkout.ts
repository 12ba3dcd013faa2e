/**
 * The browser side of the checkout (ARCHITECTURE §5): the calls of the payment flow and the
 * session keys of SPEC §3 that keep the e-mail and display name between steps.
 */
import type { OpenedPayment } from "@/lib/domain/types.ts";
import { apiFetch } from "@/lib/client/api.ts";
import { issuesToErrors } from "@/lib/client/form_errors.ts";

export const PAYMENT_EMAIL_KEY = "payment_email";
export const TEAM_NAME_KEY = "team_name";

/** What POST /api/create-payment-intent answers. */
export type PaymentIntentAnswer = OpenedPayment;

export interface CheckoutDetails {
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
}

/** Opens a payment for the picks; the server checks the competition is still open. */
export function createPaymentIntent(details: CheckoutDetails): Promise<PaymentIntentAnswer> {
  return apiFetch<PaymentIntentAnswer>("/api/create-payment-intent", {
    method: "POST",
    json: details,
  });
}

/** Test mode only: pays the intent with a test card (402 with the decline message). */
export function confirmTestPayment(paymentIntentId: string, cardNumber: string): Promise<unknown> {
  return apiFetch("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber },
  });
}

/** Turns the paid intent into the entry; resolves to its public team ID. */
export async function createEntry(
  details: CheckoutDetails & { stripePaymentId: string },
): Promise<string> {
  const answer = await apiFetch<{ teamId?: string; entry?: { teamId?: string } }>(
    "/api/entries",
    { method: "POST", json: details },
  );
  const teamId = answer?.teamId ?? answer?.entry?.teamId;
  if (!teamId) throw new Error("The entry answer has no teamId");
  return teamId;
}

function session(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The e-mail and display name kept from an earlier visit of the form ("" when none). */
export function loadCheckoutContact(): { email: string; teamName: string } {
  const store = session();
  return {
    email: store?.getItem(PAYMENT_EMAIL_KEY) ?? "",
    teamName: store?.getItem(TEAM_NAME_KEY) ?? "",
  };
}

/** Keeps the e-mail and display name for the payment step (SPEC §4). */
export function saveCheckoutContact(email: string, teamName: string): void {
  session()?.setItem(PAYMENT_EMAIL_KEY, email);
  session()?.setItem(TEAM_NAME_KEY, teamName);
}

/** Forgets them after a successful payment (SPEC §3). */
export function clearCheckoutContact(): void {
  session()?.removeItem(PAYMENT_EMAIL_KEY);
  session()?.removeItem(TEAM_NAME_KEY);
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
