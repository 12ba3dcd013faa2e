/**
 * The feed's match messages through HTTP on the two ways the app is served: main.ts (the Deploy
 * entry, on `node:http`) and `npm start` (`deno serve --parallel`, tests/helpers/server.ts). Each
 * server runs on its own KV file, which the test opens beside it to lay out the fixtures.
 */
import { withBusyRetry } from "@/lib/store/busy_retry.ts";
import { appEnv, freePort, startServer } from "@/tests/helpers/server.ts";
import {
  correctionAfterFullTime,
  earlyKickOffDrivesContests,
  type FeedTarget,
  serverTarget,
} from "@/tests/helpers/feed_scenarios.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const NO_PROVIDERS = {
  STRIPE_SECRET_KEY: "",
  STRIPE_PUBLISHABLE_KEY: "",
  STRIPE_WEBHOOK_SECRET: "",
  SMTP_URL: "",
  NO_COLOR: "1",
};

/** main.ts on `kvPath`, ready once /readyz answers; `stop` ends it. */
async function startMainEntry(kvPath: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: appEnv(port, kvPath, "admin-test-password", NO_PROVIDERS),
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already stopped
    }
    await child.status;
  };
  try {
    await waitFor("main.ts answers /readyz", async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      await res?.body?.cancel();
      return res?.ok;
    }, { timeoutMs: 60_000, everyMs: 100 });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

type Scenario = (target: FeedTarget, provider?: string) => Promise<void>;

const SCENARIOS: [string, Scenario][] = [
  [
    "a correction after full time replaces the goal; a refused one changes nothing",
    correctionAfterFullTime,
  ],
  [
    "an early kick-off closes entries and starts the contests; full time saves the result",
    earlyKickOffDrivesContests,
  ],
];

/** Runs every scenario as a step against a server started on a fresh KV file. */
async function onServer(
  t: Deno.TestContext,
  start: (kvPath: string) => Promise<{ url: string; stop(): Promise<void> }>,
) {
  const dir = await Deno.makeTempDir({ prefix: "feed-servers-" });
  const kvPath = `${dir}/app.kv`;
  const server = await start(kvPath);
  // The server writes the same file: the test's own writes wait while SQLite is busy.
  const kv = withBusyRetry(await Deno.openKv(kvPath));
  try {
    let n = 0;
    for (const [name, scenario] of SCENARIOS) {
      // Each scenario has its own provider: a provider's name is taken once per store.
      await t.step(name, () => scenario(serverTarget(server.url, kv), `acme${++n}`));
    }
  } finally {
    kv.close();
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[feed] on main.ts: corrections after full time and the feed's kick-off", async (t) => {
  await onServer(t, startMainEntry);
});

Deno.test("[feed] on npm start: corrections after full time and the feed's kick-off", async (t) => {
  await onServer(t, (kvPath) => startServer({ env: { DENO_KV_PATH: kvPath, DEMO_DATA: "0" } }));
});
