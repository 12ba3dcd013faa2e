/**
 * Deno Deploy runs only the `Deno.cron` jobs an entry module registers at its top level, before
 * `Deno.serve`, whatever the environment. main.ts is loaded (tests/e2e/cron_entry.ts, in a
 * child process of this same Deno) with a recording `Deno.cron` and `Deno.serve`, on Deploy
 * (DENO_DEPLOYMENT_ID set) and off it: every job of JOBS is registered before the first serve,
 * with its schedule and a backoffSchedule, the same ones in both; and a registered job, run as
 * Deploy's scheduler would, does its work.
 */
import assert from "node:assert/strict";
import { buildIfStale } from "@/scripts/build_if_stale.ts";
import { JOB_BACKOFF_MS, JOBS } from "@/lib/jobs.ts";
import { freePort } from "@/tests/helpers/server.ts";

const ROOT = new URL("../../", import.meta.url);

interface Recorded {
  events: { call: string; name?: string; schedule?: string; backoffSchedule?: number[] | null }[];
  swept: string | null;
}

async function loadEntry(deploy: boolean, sweep = false): Promise<Recorded> {
  const dir = await Deno.makeTempDir({ prefix: "cron-entry-" });
  try {
    const env: Record<string, string> = {
      HOME: Deno.env.get("HOME") ?? "/root",
      PATH: Deno.env.get("PATH") ?? "",
      DENO_KV_PATH: `${dir}/app.kv`,
      PORT: String(freePort()),
      HOST: "127.0.0.1",
      DEMO_DATA: "0",
      ADMIN_USERNAME: "cronadmin",
      ADMIN_PASSWORD: "cron-test-password",
      NO_COLOR: "1",
    };
    if (deploy) env.DENO_DEPLOYMENT_ID = "cron-test";
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "tests/e2e/cron_entry.ts", "main.ts", ...(sweep ? ["--sweep"] : [])],
      cwd: ROOT,
      clearEnv: true,
      env,
      stdin: "null",
    }).output();
    const out = new TextDecoder().decode(stdout);
    const line = out.split("\n").find((l) => l.startsWith("RESULT "));
    assert.ok(code === 0 && line, `${out}\n${new TextDecoder().decode(stderr)}`);
    return JSON.parse(line.slice("RESULT ".length));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[deploy] every job is registered with Deno.cron at the top level, before serve, on Deploy or not", async () => {
  await buildIfStale();
  const onDeploy = await loadEntry(true);
  const elsewhere = await loadEntry(false);
  for (const [where, { events }] of [["on Deploy", onDeploy], ["elsewhere", elsewhere]] as const) {
    const firstServe = events.findIndex((e) => e.call === "serve");
    assert.ok(firstServe >= 0, `${where}: the entry serves`);
    const late = events.slice(firstServe).filter((e) => e.call === "cron");
    assert.deepEqual(late, [], `${where}: no job registered after serve`);
    assert.deepEqual(
      events.slice(0, firstServe),
      JOBS.map((job) => ({
        call: "cron",
        name: job.name,
        schedule: job.schedule,
        backoffSchedule: JOB_BACKOFF_MS,
      })),
      `${where}: every job, with its schedule and retries, before serve`,
    );
  }
  assert.deepEqual(
    onDeploy.events.map((e) => e.name),
    elsewhere.events.map((e) => e.name),
    "the same registrations whether DENO_DEPLOYMENT_ID is set or not",
  );
  assert.deepEqual(JOBS.map((job) => job.name), [
    "payment sweep",
    "intent expiry",
    "minimum entries",
    "competition status",
    "award resumption",
    "winner notices",
    "prize reminders",
    "cancellations",
    "outbox delivery",
    "notifications",
  ]);
  assert.ok(JOBS.length <= 10, "Deno Deploy runs at most 10 cron jobs");
  for (const job of JOBS) assert.equal(job.schedule, "* * * * *", job.name);
  assert.ok(JOB_BACKOFF_MS.length <= 5 && JOB_BACKOFF_MS.every((ms) => ms <= 3_600_000));
});

Deno.test("[deploy] the registered payment sweep, run by Deploy's scheduler, makes the entry of a paid checkout", async () => {
  await buildIfStale();
  const { swept } = await loadEntry(true, true);
  assert.equal(swept, "Cron Club");
});
