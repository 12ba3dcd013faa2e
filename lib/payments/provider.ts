/** The one interface every payment provider implements (Stripe, or the offline test mode). */

export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export interface PaymentIntentInfo {
  id: string;
  clientSecret: string;
  /** Minor units: round(fee × 100). */
  amount: number;
  /** Lower case ISO code, "usd" or "gbp". */
  currency: string;
  status: IntentStatus;
  metadata: Record<string, string>;
  /** True when any of the payment was refunded, by the app or outside it (e.g. by hand). */
  refunded?: boolean;
}

export interface PaymentProvider {
  readonly mode: "stripe" | "test";
  /** Publishable key for Stripe.js; null in test mode. */
  readonly publishableKey: string | null;
  createIntent(input: {
    amount: number;
    currency: string;
    metadata: Record<string, string>;
  }): Promise<PaymentIntentInfo>;
  /** The intent as the provider knows it, or null when it does not exist. */
  retrieveIntent(id: string): Promise<PaymentIntentInfo | null>;
  /** Refunds a succeeded intent in full; refunding twice is a no-op. */
  refund(id: string, reason: string): Promise<void>;
}
