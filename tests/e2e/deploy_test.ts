/**
 * The app as Deno Deploy runs it: `--allow-all` (Deploy's only permissions; no other flag),
 * DENO_DEPLOYMENT_ID set, DENO_KV_PATH unset (so `Deno.openKv()` opens the default store),
 * DEMO_DATA=0 and the admin set explicitly. The default store lives in Deno's own folder and is
 * keyed by the origin, so each run gets a fresh one through `--location` (Deploy itself needs no
 * flag). A visitor then goes the whole way: competitions → payment intent → test card → entry →
 * leaderboard; oversized bodies answer 413. `.ci/run` runs this file on the Deno that Deploy
 * runs too (.ci/deploy-deno-version).
 */
import assert from "node:assert/strict";
import { buildIfStale } from "@/scripts/build_if_stale.ts";
import { MISSING_BUILD_ERROR } from "@/lib/app.ts";
import { NO_ADMIN_WARNING } from "@/lib/startup.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";
import { SUCCESS_CARD } from "@/tests/helpers/fixtures.ts";
import { validTeam } from "@/tests/e2e/visitor_helpers.ts";
import { ATTACK_ENDPOINTS, SAMPLE_PUSH_KEYS } from "@/tests/helpers/push_service.ts";

const ROOT = new URL("../../", import.meta.url);
const DEPLOY_PERMISSIONS = ["--allow-all"];
const ADMIN = { username: "deployadmin", password: "deploy-test-password" };
const ADMIN_HEADERS = {
  "content-type": "application/json",
  "x-admin-username": ADMIN.username,
  "x-admin-password": ADMIN.password,
};

/** Deploy's variables: only these, nothing of this machine's environment but HOME and PATH. */
function deployEnv(port: number): Record<string, string> {
  return {
    HOME: Deno.env.get("HOME") ?? "/root",
    PATH: Deno.env.get("PATH") ?? "",
    DENO_DEPLOYMENT_ID: "deploy-test",
    PORT: String(port),
    HOST: "127.0.0.1",
    DEMO_DATA: "0",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    NO_COLOR: "1",
  };
}

async function waitReady(url: string, child: Deno.ChildProcess, output: () => string) {
  let exited = false;
  child.status.then(() => exited = true);
  const ready = await waitFor("the server ready", async () => {
    if (exited) return "exited";
    const res = await fetch(`${url}/readyz`).catch(() => null); // null: not listening yet
    await res?.body?.cancel();
    return res?.ok && "ready";
  }, { timeoutMs: 60_000, everyMs: 50 });
  if (ready === "exited") throw new Error(`the server ended before it was ready:\n${output()}`);
}

/**
 * 1.1 MB bodies, sized and streamed, one after another as a browser sends them (reusing its
 * connection): the client hears 413 every time. Deno 2.5's server, answering before the body was
 * read, closed the connection under the client's next request, which then failed.
 */
async function assertOversizedRefused(url: string): Promise<void> {
  const big = new TextEncoder().encode(JSON.stringify({ padding: "x".repeat(1_100_000) }));
  for (let i = 0; i < 3; i++) {
    for (const path of ["/api/test-email", "/api/admin/login", "/api/test-payments/confirm"]) {
      for (const shape of ["sized", "streamed"]) {
        const res = await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: shape === "sized" ? big : ReadableStream.from([big]),
        });
        assert.equal(res.status, 413, `${path}, ${shape}, round ${i + 1}`);
        assert.deepEqual(await res.json(), { message: "Request body too large" });
      }
    }
  }
}

async function call(url: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${url}${path}`, init);
  const text = await res.text();
  assert.ok(res.ok, `${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

const post = (json: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(json),
});

/** What an admin sets up on an empty store: two clubs, ten players, a competition. */
async function setUpCompetition(url: string): Promise<number> {
  const teamIds: number[] = [];
  for (const n of [1, 2]) {
    const team = await call(
      url,
      "/api/admin/teams",
      post(
        { name: `Deploy Club ${n}`, shortName: `DC${n}`, league: "PREMIER_LEAGUE" },
        ADMIN_HEADERS,
      ),
    );
    teamIds.push(team.id);
  }
  const playerIds: number[] = [];
  for (const teamId of teamIds) {
    for (const position of ["GK", "DEF", "DEF", "MID", "FWD"]) {
      const player = await call(
        url,
        "/api/admin/players",
        post(
          { name: `${position} ${teamId}-${playerIds.length}`, position, teamId },
          ADMIN_HEADERS,
        ),
      );
      playerIds.push(player.id);
    }
  }
  const competition = await call(
    url,
    "/api/admin/competitions",
    post({
      name: "Deploy Cup",
      league: "PREMIER_LEAGUE",
      entryFee: 10,
      prizePool: 100,
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    }, ADMIN_HEADERS),
  );
  await call(url, `/api/admin/competitions/${competition.id}/players`, {
    ...post({ playerIds }, ADMIN_HEADERS),
  });
  return competition.id;
}

/**
 * The push endpoints of the attack run, and a listener on this machine, set through an entry's
 * edit secret: each one a 400 naming the endpoint, nothing saved, no connection made.
 */
async function assertPushEndpointsRefused(url: string, editToken: string): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      conn.close();
    }
  })();
  const here = [
    `https://127.0.0.1:${listener.addr.port}/`,
    `http://127.0.0.1:${listener.addr.port}/`,
  ];
  try {
    for (const endpoint of [...ATTACK_ENDPOINTS, ...here]) {
      const res = await fetch(`${url}/api/notifications/${editToken}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ push: { endpoint, keys: SAMPLE_PUSH_KEYS }, pushScored: true }),
      });
      assert.equal(res.status, 400, endpoint);
      assert.match((await res.json()).message, /^Push endpoint /, endpoint);
    }
    const view = await call(url, `/api/notifications/${editToken}`);
    assert.equal(view.pushEndpoint, null);
    assert.equal(connections, 0, "nothing connected to this machine's listener");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
}

/** Starts main.ts as Deploy would, on a fresh default store; `output()` is what it printed. */
function startAsDeploy(env: Record<string, string | undefined> = {}) {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const vars = Object.entries({ ...deployEnv(port), ...env })
    .filter((e): e is [string, string] => e[1] !== undefined);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...DEPLOY_PERMISSIONS,
      `--location=https://deploy-test-${crypto.randomUUID()}.example`,
      "main.ts",
    ],
    cwd: ROOT,
    clearEnv: true,
    env: Object.fromEntries(vars),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const chunks: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const bytes of stream) chunks.push(decoder.decode(bytes, { stream: true }));
  };
  const readers = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const output = () => chunks.join("");
  return {
    url,
    output,
    ready: () => waitReady(url, child, output),
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await readers;
    },
  };
}

Deno.test("[deploy] with Deploy's permissions and store, a visitor enters and shows on the leaderboard", async () => {
  await buildIfStale();
  const server = startAsDeploy();
  const { url } = server;
  try {
    await server.ready();
    await assertOversizedRefused(url);
    const cid = await setUpCompetition(url);

    const listed = await call(url, "/api/competitions");
    assert.ok(listed.some((c: { id: number }) => c.id === cid), "the competition is listed");
    const players = await call(url, `/api/competitions/${cid}/players`);
    const buyer = {
      email: "deploy@example.com",
      teamName: "Deploy Dreamers",
      playerIds: validTeam(players),
    };
    const { paymentIntentId } = await call(
      url,
      "/api/create-payment-intent",
      post({ competitionId: cid, ...buyer }),
    );
    await call(
      url,
      "/api/test-payments/confirm",
      post({ paymentIntentId, cardNumber: SUCCESS_CARD }),
    );
    const entry = await call(
      url,
      "/api/entries",
      post({ competitionId: cid, ...buyer, stripePaymentId: paymentIntentId }),
    );
    assert.equal(entry.teamName, "Deploy Dreamers");
    const board = await fetch(`${url}/leaderboard/${cid}`).then((r) => r.text());
    assert.match(board, /Deploy Dreamers/);
    await assertPushEndpointsRefused(url, entry.editToken);

    const logs = server.output();
    assert.doesNotMatch(logs, /password/i, "no password in the logs");
    const lines = logs.split("\n").filter((l) => l.startsWith("{"));
    const entryLine = lines.map((l) => JSON.parse(l)).find((l) =>
      l.route === "/api/entries" && l.method === "POST"
    );
    assert.ok(entryLine, `a JSON log line for POST /api/entries in:\n${logs}`);
    assert.equal(entryLine.status, 201);
    assert.match(entryLine.requestId, /^[0-9a-f-]{36}$/);
    assert.equal(typeof entryLine.ms, "number");
  } finally {
    await server.stop();
  }
});

Deno.test("[deploy] without admin credentials no password is made or printed", async () => {
  await buildIfStale();
  const server = startAsDeploy({ ADMIN_USERNAME: undefined, ADMIN_PASSWORD: undefined });
  try {
    await server.ready();
    const res = await fetch(`${server.url}/api/admin/session`, {
      headers: { "x-admin-username": "admin", "x-admin-password": "admin" },
    });
    await res.body?.cancel();
    assert.equal(res.status, 401);
  } finally {
    await server.stop();
  }
  assert.ok(server.output().includes(NO_ADMIN_WARNING), server.output());
  assert.doesNotMatch(server.output(), /with password/);
});

Deno.test("[deploy] without a current build in _fresh/ the start is one clear line", async () => {
  const empty = await Deno.makeTempDir({ prefix: "no-build-" });
  const script = `${empty}/start.ts`;
  await Deno.writeTextFile(
    script,
    `import manifest from "${new URL("fresh.gen.ts", ROOT).href}";
import config from "${new URL("fresh.config.ts", ROOT).href}";
import { createApp } from "${new URL("lib/app.ts", ROOT).href}";
await createApp(manifest, { ...config, build: { outDir: "${empty}/_fresh" } });
console.log("started");`,
  );
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--config", new URL("deno.json", ROOT).pathname, ...DEPLOY_PERMISSIONS, script],
      cwd: ROOT,
      clearEnv: true,
      env: deployEnv(freePort()),
      stdin: "null",
    }).output();
    assert.equal(code, 1);
    assert.equal(new TextDecoder().decode(stdout), "");
    assert.equal(new TextDecoder().decode(stderr).trim(), MISSING_BUILD_ERROR);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
