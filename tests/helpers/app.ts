/**
 * The app in-process for API tests: an in-memory KV, the test-mode payment provider (or the
 * Stripe provider against a local imitation), the outbox mailer (or SMTP), and the real handler.
 */
import { createHandler, type Plugin, type RequestHandler } from "$fresh/server.ts";
import manifest from "@/fresh.gen.ts";
import freshConfig from "@/fresh.config.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import type { LiveHubOptions } from "@/lib/live/hub.ts";
import type { AppConfig } from "@/lib/config.ts";
import { createServices, type Services } from "@/lib/services.ts";

export interface TestAppOptions {
  /** Use the Stripe provider against this imitation (see tests/helpers/fake_stripe.ts). */
  stripe?: { host: string; port: number; protocol?: "http" | "https"; webhookSecret?: string };
  /** Send mail over SMTP to this URL instead of the KV outbox. */
  smtpUrl?: string;
  /** Seed the demo data. */
  seed?: boolean;
  config?: Partial<AppConfig>;
  /** Options of the app's live hub. */
  hub?: LiveHubOptions;
  /** Wraps the in-memory store (e.g. tests/helpers/latency_kv.ts to count round trips). */
  wrapKv?: (kv: Deno.Kv) => Deno.Kv;
}

export interface TestApp {
  /** The app handler; `info` stands for the connection (e.g. the client's address). */
  handler: (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;
  kv: Deno.Kv;
  services: Services;
  /** Sends a request to `path`; a `json` body is encoded with its content type. */
  request(path: string, init?: TestRequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestRequestInit extends Omit<RequestInit, "body"> {
  json?: unknown;
  body?: BodyInit;
  /** The client's address, passed as the connection info (as Deno.serve does). */
  from?: string;
}

export const TEST_STRIPE_SECRET_KEY = "sk_test_fake_key";
export const TEST_STRIPE_PUBLISHABLE_KEY = "pk_test_fake_key";
export const TEST_WEBHOOK_SECRET = "whsec_test_fake_secret";
export const TEST_ORIGIN = "http://localhost";

/** The services of the test app each request was sent to (see `makeTestApp`'s handler). */
const servicesOf = new WeakMap<Request, Services>();

/**
 * The test counterpart of `servicesPlugin`: its root middleware puts the services of the request's
 * own test app in `ctx.state`, so one handler serves every test app of a module.
 */
const testServicesPlugin: Plugin = {
  name: "test-services",
  middlewares: [{
    path: "/",
    middleware: {
      handler: (req, ctx) => {
        const services = servicesOf.get(req);
        if (!services) throw new Error("request sent outside a test app's handler");
        ctx.state.services = services;
        return ctx.next();
      },
    },
  }],
};

let handlerPromise: Promise<RequestHandler> | null = null;

/** The app's handler with its real configuration, built once per test module (it is slow). */
function sharedHandler(): Promise<RequestHandler> {
  return handlerPromise ??= createHandler(manifest, {
    ...freshConfig,
    plugins: [...(freshConfig.plugins ?? []), testServicesPlugin],
  });
}

/** Builds a fresh app with its own in-memory store; call `close()` at the end of the test. */
export async function makeTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const opened = await Deno.openKv(":memory:");
  const store = opts.wrapKv ? opts.wrapKv(opened) : opened;
  const config: AppConfig = {
    port: 0,
    kvPath: ":memory:",
    demoData: opts.seed ?? false,
    adminUsername: null,
    adminPassword: null,
    stripeSecretKey: opts.stripe ? TEST_STRIPE_SECRET_KEY : null,
    stripePublishableKey: opts.stripe ? TEST_STRIPE_PUBLISHABLE_KEY : null,
    stripeWebhookSecret: opts.stripe ? (opts.stripe.webhookSecret ?? TEST_WEBHOOK_SECRET) : null,
    smtpUrl: opts.smtpUrl ?? null,
    mailFrom: "Fantasy Contests <no-reply@localhost>",
    publicUrl: null,
    ...opts.config,
  };
  const services = createServices(config, store, {
    payments: {
      stripeHost: opts.stripe?.host,
      stripePort: opts.stripe?.port,
      stripeProtocol: opts.stripe?.protocol ?? "http",
    },
    hub: opts.hub,
  });
  const kv = services.kv; // the tests' own writes share the app's queues, as its routes' do
  if (opts.seed) await seedDemoDataIfEmpty(kv);
  const handler = await sharedHandler();
  const handle = (req: Request, info?: Deno.ServeHandlerInfo) => {
    servicesOf.set(req, services);
    return handler(req, info);
  };
  return {
    handler: handle,
    kv,
    services,
    request(path, init = {}) {
      const { json, from, ...rest } = init;
      const headers = new Headers(rest.headers);
      let body = rest.body;
      if (json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(json);
      }
      const info = from === undefined ? undefined : {
        remoteAddr: { transport: "tcp" as const, hostname: from, port: 40000 },
        completed: Promise.resolve(),
      };
      return handle(new Request(new URL(path, TEST_ORIGIN), { ...rest, headers, body }), info);
    },
    async close() {
      await services.hub.close();
      // A provider call the app left unawaited ends before the store (and a fake Stripe) close.
      await services.payments.settled();
      store.close();
    },
  };
}

/**
 * Runs `fn` with a fresh test app and closes the app afterwards, whatever happens.
 * @example await withTestApp(async (app) => { const res = await app.request("/api/competitions"); });
 */
export async function withTestApp(
  fn: (app: TestApp) => Promise<void>,
  opts: TestAppOptions = {},
): Promise<void> {
  const app = await makeTestApp(opts);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** Reads a JSON answer after checking its content type. */
// deno-lint-ignore no-explicit-any
export async function readJsonBody<T = any>(res: Response): Promise<T> {
  const type = res.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) {
    throw new Error(`expected JSON, got "${type}": ${await res.text()}`);
  }
  return await res.json() as T;
}
