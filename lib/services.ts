/**
 * The services of one isolate (KV, payments, mailer, live hub, configuration), created once at
 * start by `createServices` and handed to every request through `ctx.state.services` by the
 * root middleware of `servicesPlugin` (Fresh's pattern for one-time set-up). Routes read them
 * from their context; tests build their own and pass them the same way.
 *
 * Everything an isolate keeps between requests is made here, once per Services: caches,
 * queues, limits (no module of lib/ keeps any at its top level; tests/unit/module_state_test.ts
 * checks). The storage engine's own (batch queues, compactions) rides on `kv`, see
 * lib/store/store_state.ts; the rest are fields below, passed by the routes to what needs them.
 * @example
 * export const handler: Handlers<unknown, State> = {
 *   GET: async (_req, ctx) => json(await listCompetitions(ctx.state.services.kv)),
 * };
 */
import type { Plugin } from "$fresh/server.ts";
import type { AppConfig } from "./config.ts";
import type { AdminIdentity } from "./auth/admins.ts";
import type { AuditStamp } from "./db/audit.ts";
import type { AdminHeaderChecks } from "./auth/guard.ts";
import type { ProviderMetadata } from "./auth/oidc.ts";
import { withStoreState } from "./store/store_state.ts";
import { LeaderboardCache } from "./live/leaderboard_cache.ts";
import { createNotifyState, type NotifyState } from "./notify/state.ts";
import { PngRenders } from "./og/png.ts";
import type { SealKeyMemo } from "./payments/payouts.ts";
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
  /** The store, carrying this isolate's storage-engine state (lib/store/store_state.ts). */
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
  /** This isolate's ranked standings per competition (the live hub ranks with it too). */
  leaderboards: LeaderboardCache;
  /** Successful x-admin header checks, reused for a minute (lib/auth/guard.ts). */
  adminChecks: AdminHeaderChecks;
  /** The identity providers' discovery documents, kept an hour (lib/auth/oidc.ts). */
  oidcMetadata: ProviderMetadata;
  /** The payout sealing key once found (lib/payments/payouts.ts). */
  payoutSealKey: SealKeyMemo;
  /** The periodic jobs running in this isolate: a job never overlaps itself (lib/jobs.ts). */
  runningJobs: Set<string>;
  /** Link-preview PNGs kept and the render slots (lib/og/png.ts). */
  pngRenders: PngRenders;
  /** The notifications' keys, VAPID headers and push workers (lib/notify/state.ts). */
  notify: NotifyState;
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

/**
 * Creates the services over an open KV store, as chosen by `config`, with fresh per-isolate state
 * (two Services on one store share none of it).
 */
export function createServices(
  config: AppConfig,
  store: Deno.Kv,
  opts: ServicesOptions = {},
): Services {
  const kv = withStoreState(store);
  const leaderboards = new LeaderboardCache(kv);
  return {
    kv,
    payments: createPaymentProvider(config, kv, opts.payments),
    mailer: createMailer(config, kv),
    // A native watch makes the poll useless: pollMs 0 turns it off.
    hub: startLiveHub(kv, {
      ...(config.kvWatchNative ? { pollMs: 0 } : {}),
      ...(config.liveMaxSockets ? { maxSockets: config.liveMaxSockets } : {}),
      ...opts.hub,
    }, leaderboards),
    cache: new RenderCache(kv),
    startUp: { done: true, error: null },
    config,
    leaderboards,
    adminChecks: new Map(),
    oidcMetadata: new Map(),
    payoutSealKey: { key: null },
    runningJobs: new Set(),
    pngRenders: new PngRenders(),
    notify: createNotifyState(),
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
