/**
 * "My picks scored" at scale: a 10,000-entry LIVE contest on a KV file, every entry
 * subscribed to push with its own browser keys (real P-256 pairs and auth secrets, made as a
 * browser makes them), a push service on 127.0.0.1 standing in for the vendors' (it checks each
 * request's VAPID JWT and aes128gcm header and decrypts one message in 50), and the app's push
 * drainer running as the server runs it. One GOAL is recorded through the real event write; the
 * figure is the time from the write until the service has received a push for every subscribed
 * entry holding the scorer (target ≤ 10 s), the median of `PUSH_RUNS` (3) goals.
 * Two contests: picks spread as the seed spreads them (a quarter of entries hold any one player),
 * and the worst case, every entry holding the scorer (10,000 pushes per goal).
 * It runs twice: on Deno Deploy's Deno (`.ci/deploy-deno-version`, installed from npm on first
 * use; visitors' goals are pushed there, and the target is read from that run), then on this Deno
 * (`npm start`'s). Each run first times one payload encryption by `web-push` alone, since that
 * cost, not the app's, sets the pace and differs between the two.
 * Run: `deno task bench push` (PUSH_ENTRIES, PUSH_RUNS to change the size, PUSH_ONLY=spread|all
 * for one scenario, PUSH_RUNTIMES=deploy or dev for one runtime).
 */
import webpush from "web-push";
import { deployDeno } from "@/bench/processes.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { setNotifyPrefs } from "@/lib/db/notifications.ts";
import { OutboxMailer } from "@/lib/email/outbox_mailer.ts";
import { startPushDrainer } from "@/lib/notify/run.ts";
import { createNotifyState } from "@/lib/notify/state.ts";
import { seedContest } from "@/tests/unit/live/seed.ts";
import { LOCAL_PUSH, startTestPushService } from "@/tests/helpers/push_service.ts";

const ENTRIES = Number(Deno.env.get("PUSH_ENTRIES") ?? 10_000);
const RUNS = Number(Deno.env.get("PUSH_RUNS") ?? 3);
const TARGET_S = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function scenario(label: string, everyoneHoldsScorer: boolean): Promise<number> {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(`${dir}/app.kv`);
  const push = startTestPushService({ decryptEvery: 50 });
  const deps = {
    kv,
    mailer: new OutboxMailer(kv),
    notify: createNotifyState(),
    config: LOCAL_PUSH, // the local push service stands for the vendors'
  };
  const drainer = startPushDrainer(deps);
  try {
    const contest = await seedContest(kv, {
      entries: ENTRIES,
      status: "LIVE",
      packRoster: true,
      ...(everyoneHoldsScorer ? { picks: (i, players) => holdingFirst(i, players) } : {}),
    });
    const entries = await listEntriesByCompetition(kv, contest.competition.id);
    const holds = new Map<number, number>();
    for (const e of entries) for (const p of e.playerIds) holds.set(p, (holds.get(p) ?? 0) + 1);
    const [scorer, holders] = [...holds].sort((a, b) => b[1] - a[1])[0];
    const setupStart = performance.now();
    for (let i = 0; i < entries.length; i += 100) {
      await Promise.all(
        entries.slice(i, i + 100).map(async (entry) => {
          const browser = await push.subscribe();
          await setNotifyPrefs(
            kv,
            entry,
            { push: browser.subscription, pushScored: true },
            "checkout",
          );
        }),
      );
    }
    console.log(
      `${label}: ${entries.length.toLocaleString("en-US")} entries subscribed in ` +
        `${((performance.now() - setupStart) / 1000).toFixed(1)} s; the scorer is held by ` +
        `${holders.toLocaleString("en-US")}`,
    );
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const before = push.received.length;
      const done = Promise.withResolvers<void>();
      push.onPush = () => {
        if (push.received.length - before >= holders) done.resolve();
      };
      const start = performance.now();
      await createGameEvent(kv, contest.competition.id, {
        playerId: scorer,
        eventType: "GOAL",
        minute: 10 + run,
      });
      const written = performance.now() - start;
      const progress = setInterval(() => {
        console.log(
          `  … ${push.received.length - before} received after ` +
            `${((performance.now() - start) / 1000).toFixed(0)} s`,
        );
      }, 10_000);
      await done.promise.finally(() => clearInterval(progress));
      const seconds = (performance.now() - start) / 1000;
      times.push(seconds);
      console.log(
        `  goal ${run + 1}: event written in ${written.toFixed(0)} ms, ` +
          `${holders.toLocaleString("en-US")} pushes received in ${seconds.toFixed(2)} s`,
      );
    }
    if (push.refused.length > 0) throw new Error(`refused: ${push.refused.slice(0, 3)}`);
    const decrypted = push.received.filter((r) => r.payload !== null);
    if (!decrypted.every((r) => (r.payload as { title: string }).title === "Your pick scored")) {
      throw new Error("a decrypted payload is not the scored notification");
    }
    const m = median(times);
    console.log(
      `  median ${m.toFixed(2)} s for ${holders.toLocaleString("en-US")} pushes ` +
        `(${Math.round(holders / m)}/s; ${decrypted.length} decrypted and checked; ` +
        `target ≤ ${TARGET_S} s)`,
    );
    return m;
  } finally {
    await drainer.stop();
    await push.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Picks for entry i that all include the first player, and four others spread over the pool. */
function holdingFirst(i: number, players: { id: number }[]): number[] {
  const picks = new Set<number>([players[0].id]);
  for (let step = 0; picks.size < 5; step++) {
    picks.add(players[1 + (i * 7 + step * 3) % (players.length - 1)].id);
  }
  return [...picks];
}

/** Milliseconds `web-push` takes to encrypt one payload for one browser (the median of 5 × 200). */
async function encryptionCost(): Promise<number> {
  const push = startTestPushService();
  try {
    const { subscription } = await push.subscribe();
    const payload = JSON.stringify({ title: "Your pick scored", body: "A scored.", url: "/" });
    const options = {
      vapidDetails: null,
      contentEncoding: "aes128gcm",
      headers: { Authorization: "vapid" },
    } as unknown as webpush.RequestOptions;
    const rounds: number[] = [];
    for (let round = 0; round < 5; round++) {
      const start = performance.now();
      for (let i = 0; i < 200; i++) webpush.generateRequestDetails(subscription, payload, options);
      rounds.push((performance.now() - start) / 200);
    }
    return median(rounds);
  } finally {
    await push.close();
  }
}

/** One runtime's run: both scenarios (or PUSH_ONLY's) on this Deno. */
async function runHere(runtime: string): Promise<void> {
  const label = `Deno ${Deno.version.deno} (${runtime})`;
  const cost = await encryptionCost();
  console.log(
    `Push bench on ${label}: ${ENTRIES.toLocaleString("en-US")} entries, ${RUNS} goals each; ` +
      `web-push encrypts one payload in ${cost.toFixed(2)} ms`,
  );
  const only = Deno.env.get("PUSH_ONLY"); // "spread" or "all": one scenario
  const spread = only === "all" ? NaN : await scenario("Spread picks", false);
  const all = only === "spread" ? NaN : await scenario("Every entry holds the scorer", true);
  console.log(
    `Push bench on ${label}: median ${spread.toFixed(2)} s (spread picks), ${all.toFixed(2)} s ` +
      `(all ${ENTRIES.toLocaleString("en-US")} hold the scorer); ${
        cost.toFixed(2)
      } ms per encryption`,
  );
}

const runtime = Deno.env.get("PUSH_RUNTIME");
if (runtime) {
  await runHere(runtime);
} else {
  // The parent: one child per runtime, Deploy's first.
  let failed = false;
  for (const which of (Deno.env.get("PUSH_RUNTIMES") ?? "deploy,dev").split(",")) {
    const exe = which === "deploy" ? await deployDeno() : Deno.execPath();
    const { code } = await new Deno.Command(exe, {
      args: ["run", "-A", new URL(import.meta.url).pathname],
      env: { PUSH_RUNTIME: which },
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    failed ||= code !== 0;
  }
  if (failed) Deno.exit(1);
}
