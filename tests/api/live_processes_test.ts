/**
 * Two real app processes (`main.ts`) on one local KV file: a GOAL posted through process A's
 * admin API reaches a socket joined on process B within 1 s. kv.watch does not fire across
 * processes on a SQLite file, so this is the versionstamp poll at its default interval.
 */
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

interface Message {
  type: string;
  competitionId?: number;
  data?: { eventType: string; minute: number | null }[];
}

Deno.test("[live] a GOAL written through one app process reaches a socket on another within 1 s", async () => {
  const dir = await Deno.makeTempDir({ prefix: "live-processes-" });
  const env = { DENO_KV_PATH: `${dir}/app.kv` };
  const servers: RunningServer[] = [];
  let socket: WebSocket | null = null;
  try {
    servers.push(await startServer({ env }));
    servers.push(await startServer({ env: { ...env, DEMO_DATA: "0" } }));
    const [a, b] = servers;
    const competitions: { id: number; status: string }[] = await (
      await fetch(`${a.url}/api/competitions`)
    ).json();
    const live = competitions.find((c) => c.status === "LIVE")!;
    const players: { id: number }[] = await (
      await fetch(`${b.url}/api/competitions/${live.id}/players`)
    ).json();

    const received: { at: number; message: Message }[] = [];
    const ws = new WebSocket(`${b.url.replace("http", "ws")}/ws`);
    socket = ws;
    ws.onmessage = (event) =>
      received.push({ at: performance.now(), message: JSON.parse(event.data) });
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    ws.send(JSON.stringify({ type: "join", competitionId: live.id }));
    await waitFor(
      "the join is answered",
      () => received.some((r) => r.message.type === "game_events_update"),
    );

    const res = await fetch(`${a.url}/api/admin/competitions/${live.id}/events`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ playerId: players[0].id, eventType: "GOAL", minute: 117 }),
    });
    assert.equal(res.status, 201, await res.text());
    const written = performance.now();
    const isGoal = (m: Message) =>
      m.type === "game_events_update" && m.data?.[0]?.eventType === "GOAL" &&
      m.data[0].minute === 117;
    const arrival = await waitFor(
      "the GOAL reached the socket on the other process",
      () => received.find((r) => isGoal(r.message)),
      { timeoutMs: 3000, everyMs: 5 },
    );
    const delay = arrival.at - written;
    assert.ok(delay <= 1000, `arrived ${delay.toFixed(0)} ms after the write`);
  } finally {
    socket?.close();
    for (const server of servers) await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
