/**
 * A local HTTP imitation of the few Stripe endpoints the app calls (create/retrieve/cancel a
 * PaymentIntent, create a refund), so the Stripe provider runs against the real `stripe` client.
 * Cancelling behaves as Stripe's does: only an intent waiting for the buyer can be cancelled;
 * cancelling a succeeded (or cancelled) one is a 400 `payment_intent_unexpected_state`, and a
 * cancelled intent can no longer be paid.
 * A succeeded intent carries its charge (`latest_charge`, as with `expand[]=latest_charge`),
 * which shows refunds, including ones made "by hand" with `refundByHand`.
 */

export interface FakeCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  refunded: boolean;
}

export interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  latest_charge: FakeCharge | null;
  livemode: false;
  cancellation_reason: string | null;
  canceled_at: number | null;
}

export interface FakeRefund {
  id: string;
  object: "refund";
  payment_intent: string;
  amount: number;
  status: "succeeded";
  metadata: Record<string, string>;
}

export interface FakeStripe {
  host: string;
  port: number;
  protocol: "http";
  intents: Map<string, FakeIntent>;
  refunds: FakeRefund[];
  /** Method and path of every request received, in order. */
  requests: string[];
  /** Marks an intent paid, as Stripe.js would after the browser confirms it. */
  succeed(id: string): FakeIntent;
  /** Refunds a paid intent in full outside the app (support, in the Stripe dashboard). */
  refundByHand(id: string): void;
  /** While true, refund requests fail with a 500 api_error (Stripe having a bad day). */
  failRefunds: boolean;
  /** While true, cancel requests fail with a 500 api_error. */
  failCancels: boolean;
  /** Called with the intent id when a cancel request arrives, before it is handled (races). */
  onCancel: ((id: string) => void) | null;
  close(): Promise<void>;
}

/** Starts the imitation on 127.0.0.1 with a free port. */
export function startFakeStripe(): FakeStripe {
  const intents = new Map<string, FakeIntent>();
  const refunds: FakeRefund[] = [];
  const refundsByKey = new Map<string, FakeRefund>();
  const requests: string[] = [];
  let counter = 0;

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}`);
    if (!req.headers.get("authorization")?.startsWith("Bearer sk_test_")) {
      return stripeError(401, "authentication_error", undefined, "Invalid API Key provided");
    }
    const form = req.method === "POST" ? parseForm(await req.text()) : {};
    if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
      const id = `pi_fake_${++counter}`;
      const intent: FakeIntent = {
        id,
        object: "payment_intent",
        amount: Number(form.amount),
        currency: String(form.currency),
        status: "requires_payment_method",
        client_secret: `${id}_secret_${counter}`,
        metadata: (form.metadata ?? {}) as Record<string, string>,
        automatic_payment_methods: form.automatic_payment_methods ? { enabled: true } : null,
        latest_charge: null,
        livemode: false,
        cancellation_reason: null,
        canceled_at: null,
      };
      intents.set(id, intent);
      return Response.json(intent);
    }
    const cancel = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/);
    if (req.method === "POST" && cancel) {
      const id = decodeURIComponent(cancel[1]);
      fake.onCancel?.(id);
      if (fake.failCancels) return stripeError(500, "api_error", undefined, "Cancels are down");
      const intent = intents.get(id);
      if (!intent) return missing(id);
      if (!CANCELLABLE.includes(intent.status)) {
        return Response.json({
          error: {
            type: "invalid_request_error",
            code: "payment_intent_unexpected_state",
            message: `You cannot cancel this PaymentIntent because it has a status of ` +
              `${intent.status}. Only a PaymentIntent with one of the following statuses may be ` +
              `canceled: ${CANCELLABLE.join(", ")}.`,
            payment_intent: intent,
          },
        }, { status: 400 });
      }
      intent.status = "canceled";
      intent.cancellation_reason = String(form.cancellation_reason ?? "") || null;
      intent.canceled_at = Math.floor(Date.now() / 1000);
      return Response.json(intent);
    }
    if (req.method === "GET" && url.pathname === "/v1/payment_intents") {
      return page(url, [...intents.values()].reverse());
    }
    if (req.method === "GET" && url.pathname === "/v1/refunds") {
      const pi = url.searchParams.get("payment_intent");
      return page(url, refunds.filter((r) => !pi || r.payment_intent === pi).reverse());
    }
    const match = url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (req.method === "GET" && match) {
      const intent = intents.get(decodeURIComponent(match[1]));
      if (!intent) return missing(match[1]);
      return Response.json(intent);
    }
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      if (fake.failRefunds) return stripeError(500, "api_error", undefined, "Refunds are down");
      const key = req.headers.get("idempotency-key");
      const previous = key ? refundsByKey.get(key) : undefined;
      if (previous) return Response.json(previous);
      const intent = intents.get(String(form.payment_intent));
      if (!intent) return missing(String(form.payment_intent));
      if (refunds.some((r) => r.payment_intent === intent.id)) {
        return stripeError(400, "invalid_request_error", "charge_already_refunded", "Refunded");
      }
      const refund: FakeRefund = {
        id: `re_fake_${++counter}`,
        object: "refund",
        payment_intent: intent.id,
        amount: intent.amount,
        status: "succeeded",
        metadata: (form.metadata ?? {}) as Record<string, string>,
      };
      refunds.push(refund);
      markRefunded(intent);
      if (key) refundsByKey.set(key, refund);
      return Response.json(refund);
    }
    return stripeError(404, "invalid_request_error", undefined, `Unrecognized request URL`);
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const paidIntent = (id: string) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`fake Stripe: no intent ${id}`);
    return intent;
  };
  const fake: FakeStripe = {
    host: "127.0.0.1",
    port: server.addr.port,
    protocol: "http",
    intents,
    refunds,
    requests,
    failRefunds: false,
    failCancels: false,
    onCancel: null,
    succeed(id) {
      const intent = paidIntent(id);
      if (intent.status === "canceled") {
        throw new Error(`fake Stripe: intent ${id} was cancelled and cannot be paid`);
      }
      intent.status = "succeeded";
      intent.latest_charge ??= {
        id: `ch_fake_${++counter}`,
        object: "charge",
        amount: intent.amount,
        amount_refunded: 0,
        refunded: false,
      };
      return intent;
    },
    refundByHand(id) {
      const intent = paidIntent(id);
      refunds.push({
        id: `re_fake_${++counter}`,
        object: "refund",
        payment_intent: id,
        amount: intent.amount,
        status: "succeeded",
        metadata: { by: "hand" },
      });
      markRefunded(intent);
    },
    close: () => server.shutdown(),
  };
  return fake;
}

/** One page of a Stripe list (newest first): `limit` (default 10) after `starting_after`. */
function page(url: URL, all: { id: string }[]): Response {
  const limit = Math.min(Number(url.searchParams.get("limit") ?? 10), 100);
  const after = url.searchParams.get("starting_after");
  const start = after ? all.findIndex((x) => x.id === after) + 1 : 0;
  const data = all.slice(start, start + limit);
  return Response.json({
    object: "list",
    url: url.pathname,
    has_more: start + limit < all.length,
    data,
  });
}

/** The statuses Stripe lets an intent be cancelled in (capture is automatic here). */
const CANCELLABLE = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
];

function markRefunded(intent: FakeIntent): void {
  if (!intent.latest_charge) return;
  intent.latest_charge.amount_refunded = intent.amount;
  intent.latest_charge.refunded = true;
}

function missing(id: string): Response {
  return stripeError(
    404,
    "invalid_request_error",
    "resource_missing",
    `No such payment_intent: '${id}'`,
  );
}

function stripeError(status: number, type: string, code: string | undefined, message: string) {
  return Response.json({ error: { type, code, message } }, { status });
}

/** Decodes Stripe's form encoding, where `metadata[key]=value` becomes a nested object. */
function parseForm(body: string): Record<string, string | Record<string, string>> {
  const out: Record<string, string | Record<string, string>> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const nested = name.match(/^([^[]+)\[([^\]]+)\]$/);
    if (!nested) {
      out[name] = value;
      continue;
    }
    const group = (out[nested[1]] ??= {}) as Record<string, string>;
    group[nested[2]] = value;
  }
  return out;
}
