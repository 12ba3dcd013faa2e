/** The Stripe payment provider: PaymentIntents, refunds and webhook verification via `stripe`. */
import Stripe from "stripe";
import { UpstreamError } from "@/lib/domain/errors.ts";
import {
  InFlight,
  type IntentStatus,
  type PaymentIntentInfo,
  type PaymentProvider,
  type ProviderRecord,
} from "./provider.ts";

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string | null;
  /** Overrides of the API address, used by tests to talk to a local imitation of Stripe. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/** How far (seconds) a webhook's signed timestamp may be from now, either way. */
const WEBHOOK_TOLERANCE_S = 300;
/** Stripe's answer when the thing asked for does not exist. */
const RESOURCE_MISSING = "resource_missing";
/** Stripe's answer when a payment was refunded already. */
const ALREADY_REFUNDED = "charge_already_refunded";
/** Stripe's answer when an intent cannot be cancelled in its status (succeeded, canceled). */
const UNEXPECTED_STATE = "payment_intent_unexpected_state";

export class StripePaymentProvider implements PaymentProvider {
  readonly mode = "stripe";
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string | null;
  private readonly inFlight = new InFlight();

  constructor(options: StripeProviderOptions) {
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
    this.stripe = new Stripe(options.secretKey, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 1,
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
  }

  /**
   * Creates a PaymentIntent with automatic payment methods (card, Apple Pay); 502 with Stripe's
   * reason when Stripe refuses it (e.g. an amount under its minimum) or cannot be reached.
   */
  async createIntent(
    input: { amount: number; currency: string; metadata: Record<string, string> },
  ): Promise<PaymentIntentInfo> {
    try {
      const intent = await this.stripe.paymentIntents.create({
        amount: input.amount,
        currency: input.currency.toLowerCase(),
        automatic_payment_methods: { enabled: true },
        metadata: input.metadata,
      });
      return toInfo(intent);
    } catch (err) {
      throw providerError(err, "The payment could not be set up");
    }
  }

  /**
   * The intent as Stripe knows it (with its charge, to see refunds), or null when Stripe does
   * not know the id; 502 when Stripe cannot be asked.
   */
  async retrieveIntent(id: string): Promise<PaymentIntentInfo | null> {
    try {
      return toInfo(
        await this.inFlight.track(
          this.stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] }),
        ),
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === RESOURCE_MISSING) return null;
      throw providerError(err, "The payment could not be checked");
    }
  }

  /** Refunds the intent in full; the idempotency key makes a repeat a no-op. */
  async refund(id: string, reason: string): Promise<void> {
    try {
      await this.stripe.refunds.create(
        { payment_intent: id, metadata: { reason } },
        { idempotencyKey: `refund-${id}` },
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === ALREADY_REFUNDED) return;
      throw err;
    }
  }

  /**
   * Cancels an unpaid intent at Stripe ("abandoned"). When Stripe refuses because the intent is
   * past cancelling (it succeeded, or was cancelled already), the intent is asked for again and
   * returned as it stands, so the caller sees the payment that won the race; 502 when Stripe
   * cannot be reached.
   */
  async cancelIntent(id: string): Promise<PaymentIntentInfo | null> {
    try {
      return toInfo(
        await this.stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" }),
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === RESOURCE_MISSING) return null;
      if (err instanceof Stripe.errors.StripeError && err.code === UNEXPECTED_STATE) {
        return await this.retrieveIntent(id);
      }
      throw providerError(err, "The payment could not be cancelled");
    }
  }

  /** Stripe keeps its intents itself: none are kept in our store. */
  listUnpaidIntents(): Promise<string[]> {
    return Promise.resolve([]);
  }

  /**
   * Every PaymentIntent and every Refund of the account, paged through with the client's
   * auto-pagination (100 a page), joined by intent; 502 when Stripe cannot be asked.
   */
  async listRecords(): Promise<ProviderRecord[]> {
    try {
      const refunded = new Map<string, number>();
      for await (const refund of this.stripe.refunds.list({ limit: 100 })) {
        if (refund.status !== "succeeded" && refund.status !== "pending") continue;
        const pi = typeof refund.payment_intent === "string"
          ? refund.payment_intent
          : refund.payment_intent?.id;
        if (pi) refunded.set(pi, (refunded.get(pi) ?? 0) + refund.amount);
      }
      const records: ProviderRecord[] = [];
      for await (const intent of this.stripe.paymentIntents.list({ limit: 100 })) {
        records.push({
          id: intent.id,
          amount: intent.amount,
          currency: intent.currency,
          status: intent.status as IntentStatus,
          refunded: refunded.get(intent.id) ?? 0,
        });
      }
      return records;
    } catch (err) {
      throw providerError(err, "The payments could not be listed");
    }
  }

  /** Resolves once every `retrieveIntent` under way has ended. */
  settled(): Promise<void> {
    return this.inFlight.settled();
  }

  /** True when a webhook secret is configured, i.e. POST /api/stripe/webhook can verify events. */
  get acceptsWebhooks(): boolean {
    return this.webhookSecret !== null;
  }

  /**
   * Verifies a webhook signature and decodes the event; throws when the signature is wrong or
   * its timestamp is more than 5 minutes old (Stripe's check) or ahead of our clock.
   */
  async verifyWebhook(body: string, signature: string, now = Date.now()): Promise<Stripe.Event> {
    if (!this.webhookSecret) throw new Error("STRIPE_WEBHOOK_SECRET is not configured");
    const event = await this.stripe.webhooks.constructEventAsync(
      body,
      signature,
      this.webhookSecret,
      WEBHOOK_TOLERANCE_S,
      Stripe.createSubtleCryptoProvider(),
    );
    const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
    if (!(signedAt * 1000 <= now + WEBHOOK_TOLERANCE_S * 1000)) {
      throw new Error("Webhook timestamp is in the future");
    }
    return event;
  }
}

/** A Stripe failure as a 502 that says what could not be done and Stripe's reason. */
function providerError(err: unknown, what: string): UpstreamError {
  const reason = (err instanceof Error ? err.message : String(err)).replace(/\.$/, "");
  console.error(`Stripe: ${what}: ${reason}`);
  return new UpstreamError(`${what}: ${reason}. Please try again.`);
}

/** Maps a Stripe PaymentIntent to the provider-neutral shape. */
function toInfo(intent: Stripe.PaymentIntent): PaymentIntentInfo {
  const charge = intent.latest_charge;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? "",
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status as IntentStatus,
    metadata: { ...(intent.metadata ?? {}) },
    refunded: typeof charge === "object" && charge !== null && charge.amount_refunded > 0,
  };
}
