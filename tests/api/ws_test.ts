import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import {
  type LiveHub,
  type LiveHubOptions,
  MAX_MESSAGE_CHARS,
  startLiveHub,
} from "@/lib/live/hub.ts";
import { serveDenoSocket } from "@/lib/live/transports.ts";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, type TestCompetition } from "@/tests/helpers/fixtures.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

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

  /** Sends text and bytes as they are, anything else as JSON. */
  send(message: unknown): void {
    if (typeof message === "string" || message instanceof ArrayBuffer) {
      return this.socket.send(message);
    }
    this.socket.send(JSON.stringify(message));
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

interface LiveApp {
  app: TestApp;
  competition: TestCompetition;
  hub: LiveHub;
  served: Served;
  /** Stops the server, the hub (its watches and timers) and the app. */
  stop(): Promise<void>;
}

/**
 * An app serving a LIVE competition with two entries (entries close once it is LIVE), its /ws
 * served by a hub started with `options`.
 */
async function liveApp(options: LiveHubOptions = {}): Promise<LiveApp> {
  const app = await makeTestApp({ hub: options });
  const competition = await makeCompetition(app.kv);
  await makeEntry(app.kv, competition);
  await makeEntry(app.kv, competition);
  await updateCompetition(app.kv, competition.id, { status: "LIVE" });
  const { hub } = app.services;
  const served = serve(app.handler);
  const stop = async () => {
    await hub.close();
    await served.stop();
    await app.close();
  };
  return { app, competition, hub, served, stop };
}

Deno.test("[ws] join gets the events at once and every change after", async (t) => {
  const { app, competition, served, stop } = await liveApp();
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
  await stop();
});

Deno.test("[ws] bad messages get an error and the socket stays up", async () => {
  const { competition, served, stop } = await liveApp();
  const client = new Client(served.url);
  await client.opened;
  const bad = [
    "not json",
    JSON.stringify({ type: "join" }),
    JSON.stringify({ type: "join", competitionId: "abc" }),
    JSON.stringify({ type: "subscribe", competitionId: competition.id }),
    JSON.stringify([1, 2]),
    "x".repeat(MAX_MESSAGE_CHARS),
    new Uint8Array([1, 2, 3]).buffer,
  ];
  for (const text of bad) {
    client.send(text);
    const error = await client.next(isType("error"));
    assert.equal(typeof error.message, "string", String(text).slice(0, 20));
    assert.ok(error.message.length > 0);
  }
  client.send({ type: "join", competitionId: 9999 });
  assert.equal((await client.next(isType("error"))).message, "Competition not found");
  client.send({ type: "join", competitionId: competition.id });
  await client.next(isType("game_events_update"));
  assert.equal(client.socket.readyState, WebSocket.OPEN);
  await client.close();
  await stop();
});

Deno.test("[ws] sockets of one competition share one channel, released when they leave", async () => {
  const { app, competition, hub, served, stop } = await liveApp({ watchGraceMs: 100 });
  const clients = [new Client(served.url), new Client(served.url), new Client(served.url)];
  await Promise.all(clients.map((c) => c.opened));
  for (const c of clients) c.send({ type: "join", competitionId: competition.id });
  await Promise.all(clients.map((c) => c.next(isType("game_events_update"))));
  assert.deepEqual(hub.stats(), { sockets: 3, competitions: 1, watches: 1, watchesStarted: 1 });

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
  await waitFor("hub.stats().watches === 0", () => hub.stats().watches === 0);
  assert.deepEqual(hub.stats(), { sockets: 0, competitions: 0, watches: 0, watchesStarted: 1 });
  await stop();
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
    serveDenoSocket(hub, socket);
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

Deno.test("[ws] heartbeats, and close() ends every socket with the restart hint (1012)", async () => {
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
  assert.equal(closed.code, 1012);
  assert.equal(closed.reason, "Service restart");
  assert.deepEqual(hub.stats(), { sockets: 0, competitions: 0, watches: 0, watchesStarted: 1 });
  await served.stop();
  kv.close();
});

Deno.test("[ws] an oversized message closes the socket with 1009", async (t) => {
  const { competition, hub, served, stop } = await liveApp();
  const oversized: [string, string | ArrayBuffer][] = [
    ["text", "x".repeat(MAX_MESSAGE_CHARS + 1)],
    ["binary", new ArrayBuffer(MAX_MESSAGE_CHARS + 1)],
  ];
  for (const [name, message] of oversized) {
    await t.step(name, async () => {
      const client = new Client(served.url);
      await client.opened;
      client.send({ type: "join", competitionId: competition.id });
      await client.next(isType("game_events_update"));
      client.send(message);
      const closed = await client.closed;
      assert.equal(closed.code, 1009);
      assert.equal(closed.reason, "Message too big");
      assert.equal(client.received.filter(isType("error")).length, 0);
      await waitFor("hub.stats().sockets === 0", () => hub.stats().sockets === 0);
      assert.equal(hub.stats().competitions, 0);
    });
  }
  await stop();
});

Deno.test("[ws] messages over the rate limit get an error, then a 1008 close", async (t) => {
  await t.step("a short overflow → one error; the socket stays up and refills", async () => {
    const { served, stop } = await liveApp({ messageBurst: 2, messagesPerSecond: 2 });
    const client = new Client(served.url);
    await client.opened;
    for (let i = 0; i < 3; i++) client.send({ type: "ping" });
    await client.next(isType("pong"));
    await client.next(isType("pong"));
    assert.equal((await client.next(isType("error"))).message, "Too many messages");
    await new Promise((r) => setTimeout(r, 600));
    client.send({ type: "ping" });
    await client.next(isType("pong"));
    assert.equal(client.socket.readyState, WebSocket.OPEN);
    await client.close();
    await stop();
  });

  await t.step("a flood (default limits) → pongs, one error, then close 1008", async () => {
    const { served, stop } = await liveApp();
    const client = new Client(served.url);
    await client.opened;
    // 20 pass, the 21st gets the error, the 41st refused closes. Sending on after the close frame
    // would make the server reset the TCP connection (no close code), so top up one at a time in
    // case the bucket regained a token during the burst.
    for (let i = 0; i < 41; i++) client.send({ type: "ping" });
    for (let i = 0; i < 20 && client.socket.readyState === WebSocket.OPEN; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (client.socket.readyState === WebSocket.OPEN) client.send({ type: "ping" });
    }
    const closed = await client.closed;
    assert.equal(closed.code, 1008);
    assert.equal(closed.reason, "Too many messages");
    const types = client.received.map((m) => m.type);
    const pongs = types.filter((type) => type === "pong").length;
    assert.ok(pongs >= 20 && pongs < 30, `${pongs} pongs`);
    assert.deepEqual(types.slice(pongs), ["error"], "the error comes after the pongs, once");
    assert.equal(client.received.at(-1)?.message, "Too many messages");
    await stop();
  });
});

Deno.test("[ws] a sixth join gets an error and the socket keeps working", async () => {
  const { app, competition, served, stop } = await liveApp();
  const ids = [competition.id];
  for (let i = 0; i < 5; i++) ids.push((await makeCompetition(app.kv, { status: "LIVE" })).id);
  const client = new Client(served.url);
  await client.opened;
  for (const id of ids.slice(0, 5)) {
    client.send({ type: "join", competitionId: id });
    await client.next((m) => m.type === "game_events_update" && m.competitionId === id);
  }
  client.send({ type: "join", competitionId: ids[5] });
  const error = await client.next(isType("error"));
  assert.equal(error.message, "A connection may follow at most 5 competitions");

  await createGameEvent(app.kv, ids[0], { playerId: competition.players[0].id, eventType: "GOAL" });
  const update = await client.next(isType("game_events_update"));
  assert.equal(update.competitionId, ids[0], "the joined competitions still push");
  client.send({ type: "leave", competitionId: ids[1] });
  client.send({ type: "join", competitionId: ids[5] });
  await client.next((m) => m.type === "game_events_update" && m.competitionId === ids[5]);
  assert.equal(client.received.filter(isType("error")).length, 0);
  assert.equal(client.socket.readyState, WebSocket.OPEN);
  await client.close();
  await stop();
});

Deno.test("[ws] join/leave churn reuses one watch; it is released after the grace", async (t) => {
  const { app, competition, hub, served, stop } = await liveApp({ watchGraceMs: 500 });
  const cid = competition.id;
  const client = new Client(served.url);
  await client.opened;

  await t.step("six join/leave rounds open one watch", async () => {
    for (let i = 0; i < 6; i++) {
      client.send({ type: "join", competitionId: cid });
      await client.next(isType("game_events_update"));
      assert.ok(hub.stats().watches <= 1);
      client.send({ type: "leave", competitionId: cid });
      client.send({ type: "ping" });
      await client.next(isType("pong"));
      assert.deepEqual(hub.stats(), { sockets: 1, competitions: 0, watches: 1, watchesStarted: 1 });
    }
  });

  await t.step("a change during the grace reaches a socket that joins back", async () => {
    await createGameEvent(app.kv, cid, { playerId: competition.players[1].id, eventType: "GOAL" });
    client.send({ type: "join", competitionId: cid });
    await client.next((m) => m.type === "game_events_update" && m.data[0]?.eventType === "GOAL");
    assert.equal(hub.stats().watchesStarted, 1);
  });

  await t.step("after the grace the watch is released; a later join opens a new one", async () => {
    client.send({ type: "leave", competitionId: cid });
    await waitFor("hub.stats().watches === 0", () => hub.stats().watches === 0);
    // A join racing the GOAL's refresh may also have got the events from before it: drop those.
    client.received.length = 0;
    client.send({ type: "join", competitionId: cid });
    await client.next(isType("game_events_update"));
    assert.deepEqual(hub.stats(), { sockets: 1, competitions: 1, watches: 1, watchesStarted: 2 });
  });

  await client.close();
  await stop();
});

Deno.test("[ws] beyond maxSockets /ws answers 503 until a socket leaves", async () => {
  const { app, hub, served, stop } = await liveApp({ maxSockets: 2 });
  const clients = [new Client(served.url), new Client(served.url)];
  await Promise.all(clients.map((c) => c.opened));
  assert.equal(hub.hasRoom(), false);

  const res = await app.request("/ws", {
    headers: {
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    },
  });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "30");
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await res.json(), {
    message: "The live feed is at capacity; please try again later",
  });
  const refused = new Client(served.url);
  await assert.rejects(refused.opened, /socket error/);
  await refused.closed;
  assert.equal(hub.stats().sockets, 2);

  await clients[0].close();
  await waitFor("hub.hasRoom()", () => hub.hasRoom());
  const late = new Client(served.url);
  await late.opened;
  late.send({ type: "ping" });
  await late.next(isType("pong"));
  await late.close();
  await clients[1].close();
  await stop();
});
