/**
 * A local HTTP imitation of the few Stripe endpoints the app calls (create/retrieve a
 * PaymentIntent, create a refund), so the Stripe provider runs against the real `stripe` client.
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
      };
      intents.set(id, intent);
      return Response.json(intent);
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
    succeed(id) {
      const intent = paidIntent(id);
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
