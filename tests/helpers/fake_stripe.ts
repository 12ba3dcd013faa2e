/**
 * A local HTTP imitation of the few Stripe endpoints the app calls (create/retrieve a
 * PaymentIntent, create a refund), so the Stripe provider runs against the real `stripe` client.
 */

export interface FakeIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
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
      if (key) refundsByKey.set(key, refund);
      return Response.json(refund);
    }
    return stripeError(404, "invalid_request_error", undefined, `Unrecognized request URL`);
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  return {
    host: "127.0.0.1",
    port: server.addr.port,
    protocol: "http",
    intents,
    refunds,
    requests,
    succeed(id) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`fake Stripe: no intent ${id}`);
      intent.status = "succeeded";
      return intent;
    },
    close: () => server.shutdown(),
  };
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
