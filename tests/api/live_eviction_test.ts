/**
 * An eviction as Deno Deploy does it: the isolate serving a page's socket gets SIGINT. The socket
 * is closed with the restart hint (1012 "Service restart"); the page waits the jittered delay of
 * lib/client/live/reconnect.ts and reconnects to the other process on the same KV file, and its
 * join brings the GOAL written while it was away.
 */
import assert from "node:assert/strict";
import { reconnectDelay, RESTART_SPREAD_MS } from "@/lib/client/live/reconnect.ts";
import { appEnv, freePort, type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

interface Message {
  type: string;
  data?: { eventType: string; minute: number | null }[];
}

/** main.ts (the Deploy entry) on `kvPath`, ready once /readyz answers. */
async function startDeployEntry(kvPath: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: appEnv(port, kvPath, "admin-test-password"),
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  await waitFor("main.ts answers /readyz", async () => {
    const res = await fetch(`${url}/readyz`).catch(() => null);
    await res?.body?.cancel();
    return res?.ok;
  }, { timeoutMs: 60_000, everyMs: 100 });
  return { url, child };
}

/** A page's socket joined to `cid`: what it received, and how it closed. */
async function join(url: string, cid: number) {
  const received: Message[] = [];
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws`);
  ws.onmessage = (event) => received.push(JSON.parse(event.data));
  const closed = new Promise<CloseEvent>((resolve) => ws.onclose = resolve);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  ws.send(JSON.stringify({ type: "join", competitionId: cid }));
  await waitFor(
    "the join is answered",
    () => received.some((m) => m.type === "game_events_update"),
  );
  return { ws, received, closed };
}

Deno.test("[live] an evicted process closes its sockets with the restart hint; the page resumes on another without missing a GOAL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "live-eviction-" });
  const kvPath = `${dir}/app.kv`;
  let other: RunningServer | null = null;
  let evicted: Awaited<ReturnType<typeof startDeployEntry>> | null = null;
  let resumed: WebSocket | null = null;
  try {
    other = await startServer({ env: { DENO_KV_PATH: kvPath } });
    evicted = await startDeployEntry(kvPath);
    const competitions: { id: number; status: string }[] = await (
      await fetch(`${other.url}/api/competitions`)
    ).json();
    const live = competitions.find((c) => c.status === "LIVE")!;
    const players: { id: number }[] = await (
      await fetch(`${other.url}/api/competitions/${live.id}/players`)
    ).json();

    const page = await join(evicted.url, live.id);
    evicted.child.kill("SIGINT");
    const hint = await page.closed;
    assert.equal(hint.code, 1012);
    assert.equal(hint.reason, "Service restart");
    assert.equal((await evicted.child.status).code, 0);

    // While the page waits, a GOAL is written on the other process.
    const res = await fetch(`${other.url}/api/admin/competitions/${live.id}/events`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ playerId: players[0].id, eventType: "GOAL", minute: 118 }),
    });
    assert.equal(res.status, 201, await res.text());
    const delay = reconnectDelay(0, hint.code);
    assert.ok(delay >= 0 && delay < RESTART_SPREAD_MS);
    await new Promise((resolve) => setTimeout(resolve, delay));

    const back = await join(other.url, live.id);
    resumed = back.ws;
    const first = back.received.find((m) => m.type === "game_events_update")!;
    assert.deepEqual(
      [first.data?.[0]?.eventType, first.data?.[0]?.minute],
      ["GOAL", 118],
      "the events the page gets on rejoining include the GOAL written while it was away",
    );
  } finally {
    resumed?.close();
    if (evicted) {
      try {
        evicted.child.kill("SIGKILL");
      } catch {
        // already stopped
      }
      await evicted.child.status;
    }
    await other?.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
