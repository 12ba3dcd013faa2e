/**
 * Hostile input against EVERY route under routes/api (enumerated from fresh.gen.ts, so a new
 * route is covered without touching this file) and every method it answers. The standard: bad
 * input gets a clear 4xx JSON `{message, issues?}`, never a 5xx, and changes nothing in the store.
 */
import assert from "node:assert/strict";
import manifest from "@/fresh.gen.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { prng } from "@/lib/prng.ts";
import { type FakeStripe, startFakeStripe } from "@/tests/helpers/fake_stripe.ts";
import { makeTestApp, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  makePlayer,
  payTestIntent,
  SUCCESS_CARD,
  TEST_ADMIN,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import {
  diffVersions,
  type KeyVersion,
  RECORDING_PREFIXES,
  restoreEntries,
  saveEntries,
  snapshotVersions,
} from "@/tests/helpers/kv_snapshot.ts";

// ---------- the routes, from the manifest ----------

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = typeof HTTP_METHODS[number];

interface ApiRoute {
  /** URL pattern with `:name` params, e.g. `/api/admin/matches/:id`. */
  pattern: string;
  methods: Method[];
}

/** Every /api route file of the manifest with the methods its handler answers. */
function apiRoutes(): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [file, mod] of Object.entries(manifest.routes)) {
    if (!file.startsWith("./routes/api/") || file.split("/").at(-1)!.startsWith("_")) continue;
    const pattern = file.slice("./routes".length).replace(/\.tsx?$/, "").replace(/\/index$/, "")
      .replace(/\[\.\.\.(\w+)\]/g, ":$1").replace(/\[(\w+)\]/g, ":$1");
    const handler = (mod as { handler?: unknown }).handler;
    const methods = typeof handler === "function"
      ? [...HTTP_METHODS]
      : HTTP_METHODS.filter((m) => typeof (handler as Record<string, unknown>)?.[m] === "function");
    routes.push({ pattern, methods });
  }
  return routes;
}

const ROUTES = apiRoutes();
const isAdmin = (r: ApiRoute) => r.pattern.startsWith("/api/admin/");
const PUBLIC_ADMIN_ROUTES = new Set(["/api/admin/login"]);
/** Methods that take no body at all: a hostile body is simply not read. */
const BODYLESS = new Set([
  "DELETE /api/admin/competitions/:id",
  "DELETE /api/admin/competitions/:id/events/:eventId",
  "DELETE /api/admin/matches/:id",
  "DELETE /api/admin/players/:id",
  "DELETE /api/admin/teams/:id",
  "POST /api/admin/logout",
  "POST /api/admin/2fa/setup",
  "DELETE /api/account/session",
  "DELETE /api/account/sessions",
]);
const takesBody = (r: ApiRoute, m: Method) => m !== "GET" && !BODYLESS.has(`${m} ${r.pattern}`);
/** 400 answers that are about the request as a whole, not a field. */
const WHOLE_REQUEST_400 = new Set(["Invalid JSON body", "Invalid webhook signature"]);

// ---------- deterministic randomness ----------

const LONG = "x".repeat(5000);
const UNICODE = "Zoë 🏆 中文 \u202e\u0000 ﷽";
/** Values no field of any route accepts, by the kind of the field's valid value. */
const MUST_REJECT: Record<string, unknown[]> = {
  number: [-1, 1e308, 2 ** 53 + 2, "NaN", "Infinity", "-Infinity", "1e309", "12abc", true, {}, []],
  date: ["not a date", "2024-13-45T99:99:99Z", 8.64e15 + 1, LONG, true, {}, []],
  string: [LONG, {}, []],
  boolean: ["maybe", 2, {}, []],
  container: [12, "x", true],
};
/** Values some fields accept: the answer may be 2xx, but never a 5xx. */
const MAY_ACCEPT: unknown[] = [null, "", " ", 0, 1.5, UNICODE, "<script>alert(1)</script>", "0x10"];
const FIELD_UNIVERSE = [
  "competitionId",
  "email",
  "teamName",
  "playerIds",
  "stripePaymentId",
  "paymentIntentId",
  "cardNumber",
  "name",
  "league",
  "entryFee",
  "deadline",
  "status",
  "playerId",
  "eventType",
  "minute",
  "performances",
  "position",
  "prize",
  "username",
  "password",
  "homeTeamId",
  "kickoffTime",
  "salary",
  "__proto__",
  "constructor",
];
const RANDOM_VALUES: unknown[] = [
  ...MUST_REJECT.number,
  ...MAY_ACCEPT,
  [1, 2, 3, 4, 5],
  [{ playerId: 1 }],
  { nested: { deeper: [LONG] } },
  "2030-01-01T00:00:00Z",
  "fan@example.com",
  "PREMIER_LEAGUE",
];

/** `count` objects of random fields and hostile values (same objects on every run). */
function randomBodies(seed: number, count: number): unknown[] {
  const next = prng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  return Array.from({ length: count }, () => {
    const body: Record<string, unknown> = {};
    const fields = 1 + Math.floor(next() * 6);
    for (let i = 0; i < fields; i++) body[pick(FIELD_UNIVERSE)] = pick(RANDOM_VALUES);
    return body;
  });
}

// ---------- the store we attack ----------

interface World {
  app: TestApp;
  admin: Record<string, string>;
  /** Valid request bodies by `METHOD pattern`. */
  bodies: Record<string, unknown>;
  /** A known value per path param, by the path segment before it (`competitions`, …). */
  ids: Record<string, string>;
  liveCompetitionId: string;
  baseline: Deno.KvEntry<unknown>[];
  /** The versions of the store as it is now (kept current by `attempt`). */
  versions: Map<string, KeyVersion>;
}

/** Pays for an entry into competition `cid`; returns the payment intent id. */
type Pay = (app: TestApp, cid: number) => Promise<string>;

async function buildWorld(app: TestApp, pay: Pay = payTestIntent): Promise<World> {
  const { kv } = app;
  const admin = await makeAdminHeaders(kv);
  const c = await makeCompetition(kv);
  const live = await makeCompetition(kv, { status: "LIVE" });
  const [home, away] = c.teams;
  const match = await createMatch(kv, {
    homeTeamId: home.id,
    awayTeamId: away.id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() + 86_400_000).toISOString(),
    stadium: "Anfield",
  });
  await setPrizeStructure(kv, c.id, [{ position: 1, prize: 60 }, { position: 2, prize: 40 }]);
  const event = await createGameEvent(kv, live.id, {
    playerId: live.players[0].id,
    eventType: "GOAL",
    minute: 3,
  });
  const entry = await makeEntry(kv, c);
  const spare = await makePlayer(kv, { teamId: home.id });
  const picks = validPicks(c);
  const unpicked = c.players.find((p) => !picks.includes(p.id))!;
  const paid = await pay(app, c.id);
  const unpaid = (await (await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id },
  })).json()).paymentIntentId;
  const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const competitionBody = {
    name: "Derby Day",
    description: "Weekend cup",
    matchId: match.id,
    league: "PREMIER_LEAGUE",
    entryFee: 10,
    prizePool: 100,
    currency: "USD",
    prizeType: "CASH",
    customPrizeDescription: "Signed shirt",
    deadline: future,
    status: "UPCOMING",
    maxEntries: 100,
    imageUrl: "https://example.com/derby.png",
    maxPlayersPerTeam: 3,
    maxForwards: 2,
    minDefenders: 1,
    salaryCap: 50000,
  };
  const matchBody = {
    homeTeamId: home.id,
    awayTeamId: away.id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    stadium: "Old Trafford",
    homeScore: 2,
    awayScore: 1,
  };
  const bodies: Record<string, unknown> = {
    "POST /api/admin/login": TEST_ADMIN,
    "POST /api/admin/competitions": competitionBody,
    "PUT /api/admin/competitions/:id": competitionBody,
    "POST /api/admin/competitions/:id/players": { playerIds: [spare.id] },
    "DELETE /api/admin/competitions/:id/players": { playerIds: [unpicked.id] },
    "PATCH /api/admin/competitions/:id/players/:playerId": { salary: 2000 },
    "POST /api/admin/competitions/:id/cancel": { reason: "The match was postponed." },
    "POST /api/admin/competitions/:id/prizes": [
      { position: 1, prize: 70, competitionId: c.id },
      { position: 2, prize: 30, competitionId: c.id },
    ],
    "POST /api/admin/competitions/:id/performances": {
      performances: [{
        playerId: picks[0],
        minutesPlayed: 90,
        goals: 1,
        assists: 1,
        saves: 2,
        goalsConceded: 1,
        penaltySaves: 0,
        penaltyMisses: 0,
        ownGoals: 0,
        yellowCards: 1,
        redCard: false,
        cleanSheet: true,
        bonus: 3,
      }],
    },
    "POST /api/admin/competitions/:id/events": {
      playerId: live.players[1].id,
      eventType: "ASSIST",
      description: "Cross from the left",
      minute: 12,
    },
    "POST /api/admin/matches": matchBody,
    "PUT /api/admin/matches/:id": matchBody,
    "POST /api/admin/teams": {
      name: "Robust FC",
      shortName: "RFC",
      league: "LA_LIGA",
      logoUrl: "https://example.com/rfc.png",
    },
    "POST /api/admin/players": {
      name: "Rob Bust",
      position: "MID",
      teamId: home.id,
      salary: 1500,
      imageUrl: "/static/rob.png",
      goals: 1,
      assists: 2,
      cleanSheets: 0,
    },
    "PATCH /api/admin/players/:id": { name: "Renamed", salary: 1500 },
    "PUT /api/admin/teams/:id": { name: "Renamed FC", shortName: "RNF", league: "PREMIER_LEAGUE" },
    "POST /api/analytics": { name: "page_view", path: "/", competitionId: c.id, props: { a: "b" } },
    "POST /api/create-payment-intent": {
      competitionId: c.id,
      email: "fan@example.com",
      teamName: "Fan Club",
      playerIds: picks,
    },
    "POST /api/entries": entryBody(c, paid),
    "POST /api/competitions/:id/entry-count": { email: "fan@example.com", editTokens: [] },
    "POST /api/test-email": { email: "fan@example.com" },
    "POST /api/my-entries/email": { email: "fan@example.com" },
    "POST /api/test-payments/confirm": { paymentIntentId: unpaid, cardNumber: SUCCESS_CARD },
  };
  const ids = {
    competitions: String(c.id),
    matches: String(match.id),
    players: String(spare.id),
    teams: String(home.id),
    entries: entry.teamId,
    events: String(event.id),
    competitionPlayer: String(picks[0]),
  };
  return {
    app,
    admin,
    bodies,
    ids,
    liveCompetitionId: String(live.id),
    baseline: await saveEntries(kv),
    versions: await snapshotVersions(kv),
  };
}

/** The pattern with every param filled with a known id, or with `override` for one param. */
function fillPath(
  world: World,
  pattern: string,
  override?: { param: string; value: string },
): string {
  const parts = pattern.split("/");
  return parts.map((part, i) => {
    if (!part.startsWith(":")) return part;
    if (override?.param === part.slice(1)) return override.value;
    const owner = parts[i - 1];
    if (part === ":playerId") return world.ids.competitionPlayer;
    if (owner === "competitions" && pattern.includes("/events")) return world.liveCompetitionId;
    return world.ids[owner] ?? "1";
  }).join("/");
}

function paramsOf(pattern: string): string[] {
  return pattern.split("/").filter((p) => p.startsWith(":")).map((p) => p.slice(1));
}

// ---------- sending and checking ----------

interface Attempt {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  /** What the test sends, for failure messages. */
  label: string;
}

interface Outcome {
  status: number;
  body: { message?: unknown; issues?: unknown } | null;
}

/** Sends one request and checks the universal rules; restores the store after any write. */
async function attempt(world: World, a: Attempt): Promise<Outcome> {
  const { app } = world;
  const where = `${a.method} ${a.path.slice(0, 120)} [${a.label}]`;
  const before = world.versions;
  const res = await app.handler(
    new Request(new URL(a.path, TEST_ORIGIN), {
      method: a.method,
      headers: a.headers,
      body: a.body,
    }),
  );
  const text = await res.text();
  const after = await snapshotVersions(app.kv);
  assert.ok(res.status < 500, `${where} → ${res.status} ${text.slice(0, 300)}`);
  let body: Outcome["body"] = null;
  if (res.status !== 204 && res.status !== 304 && a.method !== "HEAD") {
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/, where);
    body = JSON.parse(text);
  }
  if (res.status >= 400 && a.method !== "HEAD") {
    assert.equal(typeof body?.message, "string", `${where}: no message in ${text}`);
    if (res.status === 400 && !WHOLE_REQUEST_400.has(body!.message as string)) {
      assertIssues(body!.issues, where);
    }
  }
  if (res.status >= 400) {
    const changed = diffVersions(before, after, RECORDING_PREFIXES);
    assert.deepEqual(changed, [], `${where} → ${res.status} changed the store`);
  }
  if (diffVersions(before, after).length > 0) {
    await restoreEntries(app.kv, world.baseline);
    world.versions = await snapshotVersions(app.kv);
  }
  return { status: res.status, body };
}

function assertIssues(issues: unknown, where: string): void {
  assert.ok(Array.isArray(issues) && issues.length > 0, `${where}: a 400 without issues`);
  for (const issue of issues) {
    assert.ok(Array.isArray(issue.path), `${where}: issue without a path`);
    assert.equal(typeof issue.message, "string", `${where}: issue without a message`);
  }
}

function jsonAttempt(
  world: World,
  route: ApiRoute,
  method: Method,
  body: unknown,
  label: string,
  path = fillPath(world, route.pattern),
): Attempt {
  return {
    method,
    path,
    label,
    headers: { ...authFor(world, route), "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

function authFor(world: World, route: ApiRoute): Record<string, string> {
  return isAdmin(route) ? world.admin : {};
}

/** The leaves (and containers) of a JSON value, with their paths and kinds. */
function* fieldsOf(
  value: unknown,
  path: (string | number)[] = [],
): Generator<{ path: (string | number)[]; kind: string }> {
  if (Array.isArray(value) || (value && typeof value === "object")) {
    if (path.length > 0) yield { path, kind: "container" };
    for (const [k, v] of Object.entries(value)) {
      yield* fieldsOf(v, [...path, Array.isArray(value) ? Number(k) : k]);
    }
    return;
  }
  if (typeof value === "number") yield { path, kind: "number" };
  if (typeof value === "boolean") yield { path, kind: "boolean" };
  if (typeof value === "string") {
    yield { path, kind: /^\d{4}-\d\d-\d\dT/.test(value) ? "date" : "string" };
  }
}

function withValue(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

const show = (v: unknown) => {
  const text = typeof v === "string" ? JSON.stringify(v) : Deno.inspect(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

// ---------- the batteries ----------

const INVALID_JSON = [
  "",
  "{",
  "nul",
  "{'a':1}",
  '{"a":',
  "[1,2",
  "\u0000",
  "{}}",
  "undefined",
  "1e400",
  "[".repeat(30_000) + "]".repeat(30_000),
  '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000),
];
const WRONG_JSON_TYPES: unknown[] = [[], "str", null, 0, -1, true, 1e308, {}, [{}]];
const BAD_IDS = [
  "abc",
  "-1",
  "0",
  "1.5",
  "1e309",
  "99999999999999999999",
  "%00",
  "%E0%A4%A",
  "%20",
  "١",
  "9".repeat(3000),
  "x".repeat(5000),
];
const UNKNOWN_ID = "987654";
const WRONG_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
];

async function bodyBattery(world: World, route: ApiRoute, method: Method, seed: number) {
  const send = (body: unknown, label: string) =>
    attempt(world, jsonAttempt(world, route, method, body, label));
  // A route that is not there in this mode (the webhook without Stripe) answers 404 to anything.
  const absent = (await send({}, "empty object")).status === 404;
  for (const raw of INVALID_JSON) {
    const res = await attempt(world, {
      ...jsonAttempt(world, route, method, null, `invalid JSON ${show(raw)}`),
      body: raw,
    });
    assert.ok(res.status >= 400, `${method} ${route.pattern} accepted ${show(raw)}`);
  }
  for (const value of WRONG_JSON_TYPES) {
    const res = await send(value, `JSON ${show(value)}`);
    assert.ok(res.status >= 400, `${method} ${route.pattern} accepted ${show(value)}`);
  }
  for (const body of randomBodies(seed, 15)) await send(body, `random ${show(body)}`);
  const big = JSON.stringify({ padding: "x".repeat(1_100_000) });
  const tooBig = await send(JSON.parse(big), "1.1 MB body");
  assert.ok(tooBig.status === 413 || absent, `${method} ${route.pattern}: 1.1 MB body`);
  const streamed = await attempt(world, {
    ...jsonAttempt(world, route, method, null, "1.1 MB streamed body"),
    body: ReadableStream.from([new TextEncoder().encode(big)]),
  });
  assert.ok(streamed.status === 413 || absent, `${method} ${route.pattern}: 1.1 MB stream`);
}

async function fieldBattery(world: World, route: ApiRoute, method: Method, valid: unknown) {
  const key = `${method} ${route.pattern}`;
  const ok = await attempt(world, jsonAttempt(world, route, method, valid, "the valid body"));
  assert.ok(ok.status < 300, `${key}: the valid body got ${ok.status} ${show(ok.body)}`);
  for (const field of fieldsOf(valid)) {
    for (const value of MUST_REJECT[field.kind]) {
      const label = `${field.path.join(".")} = ${show(value)}`;
      const res = await attempt(
        world,
        jsonAttempt(world, route, method, withValue(valid, field.path, value), label),
      );
      if (res.status === 413) continue; // a long text over a small route's body limit
      assert.equal(res.status, 400, `${key}: ${label} → ${res.status} ${show(res.body)}`);
      const issues = res.body!.issues as { path: (string | number)[] }[];
      const at = field.path.join(".");
      assert.ok(
        issues.some((i) => i.path.join(".") === at),
        `${key}: ${label} → issues ${JSON.stringify(issues)} do not name ${at}`,
      );
    }
    for (const value of MAY_ACCEPT) {
      const label = `${field.path.join(".")} = ${show(value)}`;
      await attempt(
        world,
        jsonAttempt(world, route, method, withValue(valid, field.path, value), label),
      );
    }
  }
  for (const type of WRONG_TYPES) {
    const res = await attempt(world, {
      ...jsonAttempt(world, route, method, valid, `content-type ${type}`),
      headers: { ...authFor(world, route), "content-type": type },
    });
    assert.equal(res.status, 415, `${key}: content-type ${type} → ${res.status}`);
  }
}

/** The query a route needs besides its path ids (without it the answer is a 400, not a 404). */
const REQUIRED_QUERIES: Record<string, string> = {};

async function idBattery(world: World, route: ApiRoute, method: Method) {
  const valid = world.bodies[`${method} ${route.pattern}`] ?? {};
  const query = REQUIRED_QUERIES[`${method} ${route.pattern}`] ?? "";
  for (const param of paramsOf(route.pattern)) {
    for (const value of BAD_IDS) {
      const path = fillPath(world, route.pattern, { param, value }) + query;
      const a = takesBody(route, method)
        ? jsonAttempt(world, route, method, valid, `${param}=${show(value)}`, path)
        : { method, path, headers: authFor(world, route), label: `${param}=${show(value)}` };
      const res = await attempt(world, a);
      assert.ok(
        res.status === 400 || res.status === 404,
        `${method} ${path.slice(0, 80)} → ${res.status} ${show(res.body)}`,
      );
    }
    const unknown = param === "id" && route.pattern.startsWith("/api/entries/")
      ? "FFT-NOPE2345"
      : UNKNOWN_ID;
    const path = fillPath(world, route.pattern, { param, value: unknown }) + query;
    const a = takesBody(route, method)
      ? jsonAttempt(world, route, method, valid, `unknown ${param}`, path)
      : { method, path, headers: authFor(world, route), label: `unknown ${param}` };
    const res = await attempt(world, a);
    const mustBe404 = !takesBody(route, method) || `${method} ${route.pattern}` in world.bodies;
    if (mustBe404) assert.equal(res.status, 404, `${method} ${path} → ${res.status}`);
  }
}

async function queryBattery(world: World, route: ApiRoute) {
  const queries = [
    "?limit=abc&offset=-5",
    "?limit=1e309&offset=99999999999999999999",
    `?teamIds=${"FFT-AAAA,".repeat(300)}`,
    "?limit=%E0%A4%A&x=%00",
    `?${"a=1&".repeat(500)}`,
  ];
  for (const query of queries) {
    const path = fillPath(world, route.pattern) + query;
    await attempt(world, { method: "GET", path, headers: authFor(world, route), label: query });
    await attempt(world, { method: "HEAD", path, headers: authFor(world, route), label: query });
  }
}

async function methodBattery(world: World, route: ApiRoute) {
  for (const method of HTTP_METHODS.filter((m) => !route.methods.includes(m))) {
    const path = fillPath(world, route.pattern);
    const res = await attempt(world, {
      method,
      path,
      headers: authFor(world, route),
      label: "unsupported method",
    });
    assert.equal(res.status, 405, `${method} ${route.pattern} → ${res.status}`);
  }
}

/** Credentials that are missing, half there, forged or absurdly long. */
const NOT_AN_ADMIN: Record<string, string>[] = [
  {},
  { "x-admin-username": TEST_ADMIN.username },
  { "x-admin-username": "x".repeat(5000), "x-admin-password": "y".repeat(5000) },
  { cookie: "admin_session=forged-token" },
  { cookie: `admin_session=${"z".repeat(5000)}` },
];

async function anonymousBattery(world: World, route: ApiRoute) {
  for (const [i, method] of route.methods.entries()) {
    const valid = world.bodies[`${method} ${route.pattern}`] ?? {};
    const path = fillPath(world, route.pattern);
    // Every variant on the first method; a wrong password costs a real hash, so once is enough.
    for (const headers of i === 0 ? NOT_AN_ADMIN : NOT_AN_ADMIN.slice(0, 1)) {
      const label = `no admin: ${Object.keys(headers).join("+") || "no credentials"}`;
      const body = takesBody(route, method) ? JSON.stringify(valid) : undefined;
      const res = await attempt(world, {
        method,
        path,
        label,
        headers: { ...headers, "content-type": "application/json" },
        body,
      });
      assert.equal(res.status, 401, `${method} ${route.pattern} ${label} → ${res.status}`);
    }
  }
}

// ---------- the tests ----------

async function withWorld(fn: (world: World) => Promise<void>, app?: TestApp, pay?: Pay) {
  const testApp = app ?? await makeTestApp();
  try {
    await fn(await buildWorld(testApp, pay));
  } finally {
    await testApp.close();
  }
}

Deno.test("[robustness] the manifest lists the API routes this test attacks", () => {
  const patterns = ROUTES.map((r) => r.pattern);
  assert.ok(patterns.includes("/api/entries"));
  assert.ok(patterns.includes("/api/admin/competitions/:id/events/:eventId"));
  assert.ok(ROUTES.every((r) => r.methods.length > 0), "every route answers some method");
  for (const key of BODYLESS) {
    const [method, pattern] = key.split(" ");
    const route = ROUTES.find((r) => r.pattern === pattern);
    assert.ok(route?.methods.includes(method as Method), `${key} is still a route`);
  }
});

Deno.test("[robustness] hostile bodies: 4xx with issues, never 5xx, nothing changed", async (t) => {
  await withWorld(async (world) => {
    let seed = 1;
    for (const route of ROUTES) {
      for (const method of route.methods.filter((m) => takesBody(route, m))) {
        await t.step(`${method} ${route.pattern}`, async () => {
          await bodyBattery(world, route, method, seed++);
          const valid = world.bodies[`${method} ${route.pattern}`];
          if (valid !== undefined) await fieldBattery(world, route, method, valid);
        });
      }
    }
  });
});

Deno.test("[robustness] hostile path ids: 400 or 404, unknown ids 404", async (t) => {
  await withWorld(async (world) => {
    for (const route of ROUTES.filter((r) => paramsOf(r.pattern).length > 0)) {
      for (const method of route.methods) {
        await t.step(`${method} ${route.pattern}`, () => idBattery(world, route, method));
      }
    }
  });
});

Deno.test("[robustness] hostile queries, unsupported methods and missing credentials", async (t) => {
  await withWorld(async (world) => {
    for (const route of ROUTES) {
      await t.step(route.pattern, async () => {
        if (route.methods.includes("GET")) await queryBattery(world, route);
        await methodBattery(world, route);
        if (isAdmin(route) && !PUBLIC_ADMIN_ROUTES.has(route.pattern)) {
          await anonymousBattery(world, route);
        }
      });
    }
  });
});

Deno.test("[robustness] unknown API paths are a JSON 404 and change nothing", async () => {
  await withWorld(async (world) => {
    const paths = [
      "/api/nope",
      "/api/entries/FFT-AAAA/players/extra",
      "/api/admin/competitions/1/unknown",
      "/api/%E0%A4%A",
      `/api/${"a/".repeat(500)}z`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const headers = { ...world.admin, "content-type": "application/json" };
        const body = method === "POST" ? "{}" : undefined;
        const res = await attempt(world, { method, path, headers, body, label: "unknown path" });
        assert.equal(res.status, 404, `${method} ${path.slice(0, 60)}`);
      }
    }
  });
});

Deno.test("[robustness] Stripe mode: the webhook and payment ids from outside", async (t) => {
  const fake: FakeStripe = startFakeStripe();
  try {
    const app = await makeTestApp({ stripe: fake });
    await withWorld(
      async (world) => {
        const webhook = ROUTES.find((r) => r.pattern === "/api/stripe/webhook")!;
        await t.step("POST /api/stripe/webhook", async () => {
          await bodyBattery(world, webhook, "POST", 4242);
          for (
            const signature of ["", "t=1,v1=abc", "t=abc", "x".repeat(5000), "t=\u00ff,v1=\u00e9"]
          ) {
            const res = await attempt(world, {
              method: "POST",
              path: "/api/stripe/webhook",
              headers: { "stripe-signature": signature, "content-type": "application/json" },
              body: JSON.stringify({ type: "payment_intent.succeeded", data: { object: {} } }),
              label: `signature ${show(signature)}`,
            });
            assert.equal(res.status, 400);
          }
        });
        await t.step("POST /api/entries with payment ids Stripe never issued", async () => {
          const entries = ROUTES.find((r) => r.pattern === "/api/entries")!;
          const c = world.ids.competitions;
          const base = { ...world.bodies["POST /api/entries"] as object, competitionId: Number(c) };
          const ids = [
            "pi_../../v1/customers",
            "pi_a/b",
            "pi_%2F",
            "pi_ünï",
            "pi_" + "a".repeat(190),
          ];
          for (const stripePaymentId of ids) {
            const res = await attempt(
              world,
              jsonAttempt(world, entries, "POST", { ...base, stripePaymentId }, stripePaymentId),
            );
            assert.ok([400, 402].includes(res.status), `${stripePaymentId} → ${res.status}`);
          }
        });
      },
      app,
      async (app, cid) => {
        const res = await app.request("/api/create-payment-intent", {
          method: "POST",
          json: { competitionId: cid },
        });
        return fake.succeed((await res.json()).paymentIntentId).id;
      },
    );
  } finally {
    await fake.close();
  }
});
