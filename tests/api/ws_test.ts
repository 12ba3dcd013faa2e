import assert from "node:assert/strict";
import { updateCompetition } from "../../lib/db/competitions.ts";
import { savePerformances } from "../../lib/db/performances.ts";
import { createGameEvent } from "../../lib/db/events.ts";
import { getLiveHub, type LiveHub, startLiveHub } from "../../lib/live/hub.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { makeCompetition, makeEntry, type TestCompetition } from "../helpers/fixtures.ts";

// deno-lint-ignore no-explicit-any
type Message = Record<string, any>;

/** A WebSocket client that queues what it receives, for step-by-step assertions. */
class Client {
  readonly socket: WebSocket;
  readonly received: Message[] = [];
  #waiters: (() => void)[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<CloseEvent>;

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.onopen = () => resolve();
      this.socket.onerror = () => reject(new Error("socket error"));
    });
    this.closed = new Promise((resolve) => this.socket.addEventListener("close", resolve));
    this.socket.onmessage = (event) => {
      this.received.push(JSON.parse(event.data));
      for (const wake of this.#waiters.splice(0)) wake();
    };
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** Takes the first queued message matching `match`, waiting up to `ms` for it. */
  async next(match: (m: Message) => boolean, ms = 3000): Promise<Message> {
    const deadline = Date.now() + ms;
    while (true) {
      const index = this.received.findIndex(match);
      if (index >= 0) return this.received.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message; got ${JSON.stringify(this.received)}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
        this.#waiters.push(resolve);
      });
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) this.socket.close();
    await this.closed;
  }
}

const isType = (type: string) => (m: Message) => m.type === type;

interface Served {
  url: string;
  stop(): Promise<void>;
}

function serve(handler: (req: Request) => Response | Promise<Response>): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return {
    url: `ws://127.0.0.1:${server.addr.port}/ws`,
    stop: () => server.shutdown(),
  };
}

/** An app serving a LIVE competition with two entries (entries close once it is LIVE). */
async function liveApp(): Promise<{ app: TestApp; competition: TestCompetition; served: Served }> {
  const app = await makeTestApp();
  const competition = await makeCompetition(app.kv);
  await makeEntry(app.kv, competition);
  await makeEntry(app.kv, competition);
  await updateCompetition(app.kv, competition.id, { status: "LIVE" });
  return { app, competition, served: serve(app.handler) };
}

Deno.test("[ws] join gets the events at once and every change after", async (t) => {
  const { app, competition, served } = await liveApp();
  const [gk, def] = competition.players;
  await createGameEvent(app.kv, competition.id, { playerId: gk.id, eventType: "SAVE", minute: 2 });
  const client = new Client(served.url);
  await client.opened;

  await t.step("join → the current game_events_update", async () => {
    client.send({ type: "join", competitionId: competition.id });
    const update = await client.next(isType("game_events_update"));
    assert.equal(update.competitionId, competition.id);
    assert.deepEqual(update.data.map((e: Message) => e.eventType), ["SAVE"]);
    assert.equal(update.data[0].player.name, gk.name);
    assert.equal(update.data[0].player.team.shortName, competition.teams[0].shortName);
  });

  await t.step("a GOAL event → new events, then a leaderboard_update hint", async () => {
    await createGameEvent(app.kv, competition.id, { playerId: def.id, eventType: "GOAL" });
    const update = await client.next(isType("game_events_update"));
    assert.deepEqual(update.data.map((e: Message) => e.eventType), ["GOAL", "SAVE"]);
    const hint = await client.next(isType("leaderboard_update"));
    assert.equal(hint.competitionId, competition.id);
  });

  await t.step("points moving without a new event → only the hint", async () => {
    await savePerformances(app.kv, competition.id, [{ playerId: gk.id, minutesPlayed: 90 }]);
    await client.next(isType("leaderboard_update"));
    assert.equal(client.received.filter(isType("game_events_update")).length, 0);
  });

  await t.step("ping → pong", async () => {
    client.send({ type: "ping" });
    await client.next(isType("pong"));
  });

  await client.close();
  await served.stop();
  await app.close();
});

Deno.test("[ws] bad messages get an error and the socket stays up", async () => {
  const { app, competition, served } = await liveApp();
  const client = new Client(served.url);
  await client.opened;
  const bad = [
    "not json",
    JSON.stringify({ type: "join" }),
    JSON.stringify({ type: "join", competitionId: "abc" }),
    JSON.stringify({ type: "subscribe", competitionId: competition.id }),
    JSON.stringify([1, 2]),
    "x".repeat(5000),
  ];
  for (const text of bad) {
    client.send(text);
    const error = await client.next(isType("error"));
    assert.equal(typeof error.message, "string", text.slice(0, 20));
    assert.ok(error.message.length > 0);
  }
  client.send({ type: "join", competitionId: 9999 });
  assert.equal((await client.next(isType("error"))).message, "Competition not found");
  client.send({ type: "join", competitionId: competition.id });
  await client.next(isType("game_events_update"));
  assert.equal(client.socket.readyState, WebSocket.OPEN);
  await client.close();
  await served.stop();
  await app.close();
});

Deno.test("[ws] sockets of one competition share one channel, released when they leave", async () => {
  const { app, competition, served } = await liveApp();
  const clients = [new Client(served.url), new Client(served.url), new Client(served.url)];
  await Promise.all(clients.map((c) => c.opened));
  for (const c of clients) c.send({ type: "join", competitionId: competition.id });
  await Promise.all(clients.map((c) => c.next(isType("game_events_update"))));
  const hub = getLiveHub();
  assert.deepEqual(hub.stats(), { sockets: 3, competitions: 1 });

  await createGameEvent(app.kv, competition.id, {
    playerId: competition.players[0].id,
    eventType: "YELLOW_CARD",
  });
  for (const c of clients) {
    const update = await c.next(isType("game_events_update"));
    assert.equal(update.data[0].eventType, "YELLOW_CARD");
  }

  clients[0].send({ type: "leave", competitionId: competition.id });
  await clients[1].close();
  await clients[2].close();
  await clients[0].close();
  const deadline = Date.now() + 2000;
  while (hub.stats().sockets > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(hub.stats(), { sockets: 0, competitions: 0 });
  await served.stop();
  await app.close();
});

Deno.test("[ws] GET /ws without an upgrade is a 426", async () => {
  const app = await makeTestApp();
  const res = await app.request("/ws");
  assert.equal(res.status, 426);
  await res.body?.cancel();
  await app.close();
});

/** A server that hands every socket to `hub` (no app routes needed). */
function serveHub(hub: LiveHub): Served {
  return serve((req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    hub.accept(socket);
    return response;
  });
}

Deno.test("[ws] changes made by another process arrive through the versionstamp poll", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const kv = await Deno.openKv(path);
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const hub = startLiveHub(kv, { pollMs: 100 });
  const served = serveHub(hub);
  const client = new Client(served.url);
  await client.opened;
  client.send({ type: "join", competitionId: competition.id });
  await client.next(isType("game_events_update"));

  const script = `
    import { createGameEvent } from "${new URL("../../lib/db/events.ts", import.meta.url)}";
    const kv = await Deno.openKv(${JSON.stringify(path)});
    await createGameEvent(kv, ${competition.id}, { playerId: ${
    competition.players[3].id
  }, eventType: "ASSIST" });
    kv.close();`;
  const child = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--unstable-kv", script],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(child.code, 0, new TextDecoder().decode(child.stderr));
  const update = await client.next(isType("game_events_update"), 3000);
  assert.equal(update.data[0].eventType, "ASSIST");

  await client.close();
  await hub.close();
  await served.stop();
  kv.close();
  await Deno.remove(path);
});

Deno.test("[ws] heartbeats, and close() ends every socket with 1001", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const hub = startLiveHub(kv, { heartbeatMs: 50 });
  const served = serveHub(hub);
  const client = new Client(served.url);
  await client.opened;
  client.send({ type: "join", competitionId: competition.id });
  await client.next(isType("game_events_update"));
  await client.next(isType("ping"), 1000);
  await hub.close();
  const closed = await client.closed;
  assert.equal(closed.code, 1001);
  assert.deepEqual(hub.stats(), { sockets: 0, competitions: 0 });
  await served.stop();
  kv.close();
});
