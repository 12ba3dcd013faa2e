/** The one interface every payment provider implements (Stripe, or the offline test mode). */
import type { IntentStatus } from "@/lib/domain/paid_entry.ts";

export type { IntentStatus };

/**
 * How long an intent may stay unpaid: past this the recovery sweep cancels it at the
 * provider and, once the provider confirms it can never be paid, removes its pending checkout.
 * A buyer sits on the payment step for minutes, so an hour never cuts one off.
 */
export const UNPAID_INTENT_TTL_MS = 60 * 60_000;

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

/** A payment as the provider itself recorded it (for `deno task reconcile --provider`). */
export interface ProviderRecord {
  id: string;
  /** Minor units charged. */
  amount: number;
  /** Lower case ISO code. */
  currency: string;
  status: IntentStatus;
  /** Minor units the provider gave back (every succeeded or pending refund of the payment). */
  refunded: number;
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
  /**
   * Cancels an intent that was never paid, so it can never be paid. Resolves to the intent as it
   * then stands: "canceled", or the status that made cancelling impossible ("succeeded" when the
   * payment won the race, "processing"); null when the provider does not know the id.
   */
  cancelIntent(id: string): Promise<PaymentIntentInfo | null>;
  /**
   * The ids of intents opened before `before`, never paid, that the provider keeps in our store
   * (test mode); Stripe keeps its own and lists none. The sweep cancels them.
   */
  listUnpaidIntents(before: Date, limit: number): Promise<string[]>;
  /** Every payment and its refunds as the provider recorded them, paged through in full. */
  listRecords(): Promise<ProviderRecord[]>;
  /**
   * Resolves once every `retrieveIntent` under way has ended, those whose answer nobody waits
   * for included (settlePayment asks while it reads the store): a shutdown awaits it before it
   * closes the store.
   */
  settled(): Promise<void>;
}

/** The calls of a provider still under way, so a shutdown can wait for the unawaited ones. */
export class InFlight {
  private readonly calls = new Set<Promise<unknown>>();

  /** Returns `call`, counted as under way until it settles. */
  track<T>(call: Promise<T>): Promise<T> {
    this.calls.add(call);
    const done = () => this.calls.delete(call);
    call.then(done, done);
    return call;
  }

  /** Resolves once every call tracked so far has settled (however it ended). */
  async settled(): Promise<void> {
    while (this.calls.size > 0) await Promise.allSettled([...this.calls]);
  }
}
