/**
 * The feed's match messages through HTTP on the two ways the app is served: main.ts (the Deploy
 * entry, on `node:http`) and `npm start` (`deno serve --parallel`, tests/helpers/server.ts). Each
 * server runs on its own KV file, which the test opens beside it to lay out the fixtures.
 */
import { withBusyRetry } from "@/lib/store/busy_retry.ts";
import { startMainEntry } from "@/tests/helpers/main_entry.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  correctionAfterFullTime,
  earlyKickOffDrivesContests,
  type FeedTarget,
  serverTarget,
} from "@/tests/helpers/feed_scenarios.ts";

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
  // One isolate: the scenarios are about the feed, not about sharing a port (Deno 2.5's
  // node:http, which CI also runs this file on, cannot share one).
  await onServer(
    t,
    (kvPath) => startServer({ env: { DENO_KV_PATH: kvPath, DEMO_DATA: "0", DENO_JOBS: "1" } }),
  );
});
