/**
 * The offline test-mode payment provider (no STRIPE_SECRET_KEY): intents live in KV and are
 * confirmed with a test card number through POST /api/test-payments/confirm.
 */
import { luhnValid } from "@/lib/domain/schemas/public.ts";
import { fieldError, PaymentNotCompletedError } from "@/lib/domain/errors.ts";
import {
  cancelTestIntent,
  getTestIntent,
  listTestIntents,
  listUnpaidTestIntentIds,
  saveTestIntent,
  type TestIntentRecord,
  updateTestIntent,
} from "@/lib/db/test_payment_intents.ts";
import { randomToken } from "@/lib/auth/passwords.ts";
import {
  InFlight,
  type PaymentIntentInfo,
  type PaymentProvider,
  type ProviderRecord,
  UNPAID_INTENT_TTL_MS,
} from "./provider.ts";

/** The card that is always declined, as in Stripe's test mode. */
export const DECLINED_CARD = "4000000000000002";

/**
 * An unpaid test intent also expires by itself (KV `expireIn`) this long after it was opened: a
 * backstop behind the sweep, which cancels it after UNPAID_INTENT_TTL_MS. Paying it removes the
 * expiry in the same atomic, so a paid intent is never dropped.
 */
export const TEST_INTENT_BACKSTOP_MS = 2 * UNPAID_INTENT_TTL_MS;

export class TestPaymentProvider implements PaymentProvider {
  readonly mode = "test";
  readonly publishableKey = null;
  private readonly inFlight = new InFlight();

  constructor(private readonly kv: Deno.Kv) {}

  /** Creates an intent waiting for a card, with ids shaped like Stripe's. */
  async createIntent(
    input: { amount: number; currency: string; metadata: Record<string, string> },
  ): Promise<PaymentIntentInfo> {
    const id = `pi_test_${randomToken(12)}`;
    const record: TestIntentRecord = {
      id,
      clientSecret: `${id}_secret_${randomToken(12)}`,
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      status: "requires_payment_method",
      metadata: { ...input.metadata },
      refunded: false,
      refundReason: null,
      createdAt: new Date().toISOString(),
    };
    await saveTestIntent(this.kv, record, TEST_INTENT_BACKSTOP_MS);
    return toInfo(record);
  }

  /** The intent, or null when the id is unknown. */
  async retrieveIntent(id: string): Promise<PaymentIntentInfo | null> {
    const record = await this.inFlight.track(getTestIntent(this.kv, id));
    return record ? toInfo(record) : null;
  }

  /** Marks a succeeded intent refunded; a second call changes nothing. */
  async refund(id: string, reason: string): Promise<void> {
    await updateTestIntent(this.kv, id, (current) => {
      if (current.refunded) return current;
      return { ...current, refunded: true, refundReason: reason };
    }, TEST_INTENT_BACKSTOP_MS);
  }

  /**
   * Cancels an unpaid intent: it is removed, so confirming it later is a 404 and the sweep sees
   * it gone. A paid intent is left as it is and returned with its status.
   */
  async cancelIntent(id: string): Promise<PaymentIntentInfo | null> {
    const record = await cancelTestIntent(this.kv, id);
    return record ? toInfo(record) : null;
  }

  /** The unpaid intents opened before `before` (oldest first, at most `limit`). */
  listUnpaidIntents(before: Date, limit: number): Promise<string[]> {
    return listUnpaidTestIntentIds(this.kv, before, limit);
  }

  /** Every intent the test provider keeps, with what it refunded (all of it, once refunded). */
  async listRecords(): Promise<ProviderRecord[]> {
    return (await listTestIntents(this.kv)).map((r) => ({
      id: r.id,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
      refunded: r.refunded ? r.amount : 0,
    }));
  }

  /** Resolves once every `retrieveIntent` under way has ended. */
  settled(): Promise<void> {
    return this.inFlight.settled();
  }

  /** True once `refund` has been called for this intent. */
  async isRefunded(id: string): Promise<boolean> {
    return (await getTestIntent(this.kv, id))?.refunded ?? false;
  }

  /**
   * Pays an intent with a test card (spaces ignored): 4242… succeeds, 4000 0000 0000 0002 is
   * declined (402), a number failing the Luhn check is a 400. Confirming a paid intent is a no-op.
   */
  async confirm(id: string, cardNumber: string): Promise<"succeeded"> {
    const digits = cardNumber.replace(/\s+/g, "");
    if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
      throw fieldError("cardNumber", "Your card number is invalid.");
    }
    await updateTestIntent(this.kv, id, (current) => {
      if (current.status === "succeeded") return current;
      if (digits === DECLINED_CARD) throw new PaymentNotCompletedError("Your card was declined.");
      return { ...current, status: "succeeded" };
    }, TEST_INTENT_BACKSTOP_MS);
    return "succeeded";
  }
}

function toInfo(record: TestIntentRecord): PaymentIntentInfo {
  return {
    id: record.id,
    clientSecret: record.clientSecret,
    amount: record.amount,
    currency: record.currency,
    status: record.status,
    metadata: { ...record.metadata },
    refunded: record.refunded,
  };
}
