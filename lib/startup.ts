/**
 * The work of a start that runs once the server answers, in the background: the one-time
 * migrations, the demo seed, the admin account, then the periodic jobs (lib/jobs.ts). Isolates and
 * processes that start at once on one store take turns under a KV lease, so there is one seed
 * and one admin. `/readyz` answers 200 once this isolate's turn is done.
 *
 * Passwords never reach kept logs: where the logs are kept (Deno Deploy) no admin password is
 * generated; without ADMIN_USERNAME/ADMIN_PASSWORD (or OpenID Connect) there is no admin, and
 * one warning line says how to add one. On a developer's machine a generated password is
 * printed once, to the terminal that started the server.
 */
import { ensureAdmin, hasAdmins } from "@/lib/auth/admins.ts";
import { releaseLease, takeLease } from "@/lib/store/leases.ts";
import { runPendingMigrations } from "@/lib/db/migrations.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { type CronJobs, type JobRunner, startJobRunner } from "@/lib/jobs.ts";
import { type PushDrainer, startPushDrainer } from "@/lib/notify/run.ts";
import type { ServerConfig } from "@/lib/config.ts";
import type { Services, StartUpState } from "@/lib/services.ts";

const STARTUP_LEASE = "startup";
const STARTUP_LEASE_MS = 60_000;
const LEASE_WAIT_MS = 100;

/** The warning of a Deploy start without admin credentials. */
export const NO_ADMIN_WARNING = "Warning: no admin account; set ADMIN_USERNAME and " +
  "ADMIN_PASSWORD (no password is generated on Deno Deploy, whose logs are kept)";

/** What a restart prints where the admin's password was generated at an earlier start. */
export const ADMIN_HINT = "Admin sign-in: /admin (forgot the password? `npm run admin:password` " +
  "sets a new one)";

/** The background work of a start; `stop` waits for it and stops the periodic jobs. */
export interface BackgroundWork {
  state: StartUpState;
  finished: Promise<void>;
  stop(): Promise<void>;
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

async function provideAdmin(kv: Deno.Kv, config: ServerConfig): Promise<void> {
  if (config.deploy && config.adminPassword === null) {
    if (!config.oidc && !await hasAdmins(kv)) console.warn(NO_ADMIN_WARNING);
    return;
  }
  const admin = await ensureAdmin(kv, config.adminUsername, config.adminPassword);
  if (admin.generatedPassword) {
    console.log(
      `Created admin "${admin.username}" with password: ${admin.generatedPassword} ` +
        "(shown once; set ADMIN_USERNAME/ADMIN_PASSWORD to choose your own)",
    );
  } else if (config.adminPassword === null && !config.deploy) {
    // The generated password was printed at the very first start only; a restart says how to
    // get a new one rather than leaving a newcomer locked out.
    console.log(ADMIN_HINT);
  }
}

/** Migrations, seed and admin, under the start-up lease (waiting for another holder's turn). */
async function startUpOnce(kv: Deno.Kv, config: ServerConfig, stopped: () => boolean) {
  const owner = crypto.randomUUID();
  while (!await takeLease(kv, STARTUP_LEASE, owner, STARTUP_LEASE_MS)) {
    if (stopped()) return;
    await new Promise((resolve) => setTimeout(resolve, LEASE_WAIT_MS));
  }
  try {
    await runPendingMigrations(kv);
    if (config.demoData) await seedDemoDataIfEmpty(kv);
    await provideAdmin(kv, config);
  } finally {
    await releaseLease(kv, STARTUP_LEASE, owner);
  }
}

/**
 * Starts the start-up work of this isolate in the background, then the periodic jobs: on Deploy
 * the entry's cron jobs (`cronJobs`, registered by main.ts) run them once this work is done;
 * elsewhere, or where no cron job was registered, the lease runner does.
 */
export function startBackgroundWork(
  services: Services,
  config: ServerConfig,
  origin: string,
  cronJobs?: CronJobs,
): BackgroundWork {
  const state: StartUpState = { done: false, error: null };
  let stopped = false;
  const startUp = startUpOnce(services.kv, config, () => stopped).then(() => {
    state.done = true;
  });
  cronJobs?.attach({ deps: services, origin, ready: startUp });
  const byCron = config.deploy && (cronJobs?.registered ?? 0) > 0;
  let runner: JobRunner | null = null;
  let drainer: PushDrainer | null = null;
  const finished = (async () => {
    try {
      await startUp;
    } catch (err) {
      state.error = firstLine(err);
      if (!stopped) console.error(`Start-up work failed: ${state.error}`);
      return;
    }
    if (!stopped && !byCron) runner = startJobRunner(services, origin);
    if (!stopped) drainer = startPushDrainer(services);
  })();
  return {
    state,
    finished,
    async stop() {
      stopped = true;
      await finished;
      await cronJobs?.detach();
      await runner?.stop();
      await drainer?.stop();
    },
  };
}
