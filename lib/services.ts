/**
 * The services of one isolate (KV, payments, mailer, live hub, configuration), created once at
 * start by `createServices` and handed to every request through `ctx.state.services` by the
 * root middleware of `servicesPlugin` (Fresh's pattern for one-time set-up). Routes read them
 * from their context; tests build their own and pass them the same way.
 * @example
 * export const handler: Handlers<unknown, State> = {
 *   GET: async (_req, ctx) => json(await listCompetitions(ctx.state.services.kv)),
 * };
 */
import type { Plugin } from "$fresh/server.ts";
import type { AppConfig } from "./config.ts";
import type { AdminIdentity } from "./auth/admins.ts";
import type { AuditStamp } from "./db/audit.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import { createPaymentProvider, type PaymentProviderOptions } from "./payments/mod.ts";
import type { Mailer } from "./email/mailer.ts";
import { createMailer } from "./email/mod.ts";
import { type LiveHub, type LiveHubOptions, startLiveHub } from "./live/hub.ts";
import { RenderCache } from "./render_cache.ts";

/** Where this isolate's start-up work stands (read by /readyz; lib/startup.ts moves it). */
export interface StartUpState {
  done: boolean;
  /** The first line of the error that stopped it, or null. */
  error: string | null;
}

export interface Services {
  kv: Deno.Kv;
  payments: PaymentProvider;
  mailer: Mailer;
  /** The live hub behind /ws (its watches and timers start with the first socket). */
  hub: LiveHub;
  /** This isolate's rendered public answers (see render_cache.ts). */
  cache: RenderCache;
  /** This isolate's start-up work (done at once where nothing runs in the background). */
  startUp: StartUpState;
  config: AppConfig;
}

/** The request state every route sees: `ctx.state.services`. */
export interface State {
  services: Services;
}

/** The state of /admin and /api/admin requests once their middleware found the admin. */
export interface AdminState extends State {
  admin: AdminIdentity;
  /** What the request's write functions add to their commit (lib/http/admin_audit.ts). */
  audit?: AuditStamp;
}

export interface ServicesOptions {
  /** Where the Stripe client sends its requests (tests point it at a local imitation). */
  payments?: PaymentProviderOptions;
  /** Options of the live hub (tests shorten its timers). */
  hub?: LiveHubOptions;
}

/** Creates the services over an open KV store, as chosen by `config`. */
export function createServices(
  config: AppConfig,
  kv: Deno.Kv,
  opts: ServicesOptions = {},
): Services {
  return {
    kv,
    payments: createPaymentProvider(config, kv, opts.payments),
    mailer: createMailer(config, kv),
    // A native watch makes the poll useless: pollMs 0 turns it off.
    hub: startLiveHub(kv, {
      ...(config.kvWatchNative ? { pollMs: 0 } : {}),
      ...(config.liveMaxSockets ? { maxSockets: config.liveMaxSockets } : {}),
      ...opts.hub,
    }),
    cache: new RenderCache(kv),
    startUp: { done: true, error: null },
    config,
  };
}

/**
 * The plugin whose root middleware puts `services` in `ctx.state` for every request, before
 * the app's own middlewares run.
 * @example await createHandler(manifest, { plugins: [...config.plugins, servicesPlugin(s)] });
 */
export function servicesPlugin(services: Services): Plugin {
  return {
    name: "services",
    middlewares: [{
      path: "/",
      middleware: {
        handler: (_req, ctx) => {
          ctx.state.services = services;
          return ctx.next();
        },
      },
    }],
  };
}
