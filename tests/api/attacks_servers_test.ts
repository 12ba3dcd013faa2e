/**
 * The holes an attack run found, tried again from outside through HTTP on both servers: `npm
 * start` (node:http) and main.ts in Deploy mode (DENO_DEPLOYMENT_ID set). Each attack is now
 * refused: push endpoints pointing inward, the entry count telling who plays, league codes mailed
 * on a stranger's say with their text in the subject, and a consent source chosen by the client.
 * The store is a file the test opens beside the server to lay out the contest and read results.
 */
import assert from "node:assert/strict";
import { listOutbox } from "@/lib/db/outbox.ts";
import { withBusyRetry } from "@/lib/store/busy_retry.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { type ServerKind, startAppProcess } from "@/tests/helpers/app_processes.ts";
import { buyEntryAnswer } from "@/tests/e2e/visitor_helpers.ts";
import { buildIfStale } from "@/scripts/build_if_stale.ts";

const INWARD = [
  "https://169.254.169.254/",
  "https://metadata.google.internal/",
  "https://10.0.0.1/push",
  "https://192.168.1.1/push",
  "https://172.16.0.1/push",
  "https://[fd00::1]/push",
  "https://localhost/push",
  "https://[::1]/push",
  "https://0.0.0.0/push",
  "https://[::ffff:127.0.0.1]/push",
  "https://127.1/push",
  "https://2130706433/push",
  "http://127.0.0.1:9/push",
];

async function send(url: string, path: string, method: string, json?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, body };
}

for (
  const [kind, env] of [["npm start", {}], ["main.ts", { DENO_DEPLOYMENT_ID: "attack-test" }]] as [
    ServerKind,
    Record<string, string>,
  ][]
) {
  const label = kind === "main.ts" ? "main.ts in Deploy mode" : kind;
  Deno.test(`[attacks] ${label}: the holes of the attack run are refused`, async (t) => {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/app.kv`;
    // The server writes the same file: the test's own writes wait while SQLite is busy.
    const kv = withBusyRetry(await Deno.openKv(kvPath));
    await buildIfStale(); // Deploy mode serves a prebuilt _fresh/ only
    const app = await startAppProcess(kind, { DENO_KV_PATH: kvPath, ...env });
    try {
      const c = await makeCompetition(kv, { maxEntriesPerPerson: 3 });
      const paid = await buyEntryAnswer(app.url, c.id, {
        email: "victim@example.com",
        teamName: "Victim Eleven",
      });
      const token = paid.editToken as string;

      await t.step("push endpoints inward: 400 on push.endpoint, nothing saved", async () => {
        for (const endpoint of INWARD) {
          const res = await send(app.url, `/api/notifications/${token}`, "PUT", {
            push: { endpoint, keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) } },
          });
          assert.equal(res.status, 400, `${endpoint}: ${JSON.stringify(res.body)}`);
          assert.match(JSON.stringify(res.body), /endpoint/i, endpoint);
        }
        const view = await send(app.url, `/api/notifications/${token}`, "GET");
        assert.equal((view.body as { push?: unknown }).push ?? null, null);
      });

      await t.step("the entry count tells a stranger nothing about who entered", async () => {
        const asked = await send(
          app.url,
          `/api/competitions/${c.id}/entry-count?email=victim@example.com`,
          "GET",
        );
        assert.notEqual(asked.status, 200, "the address-only question is gone");
        const count = (email: string) =>
          send(app.url, `/api/competitions/${c.id}/entry-count`, "POST", {
            email,
            editTokens: [],
          });
        const [victim, stranger] = [
          await count("victim@example.com"),
          await count("x@example.com"),
        ];
        assert.equal(victim.status, 200);
        assert.deepEqual(victim.body, stranger.body, "the same answer for both addresses");
      });

      await t.step(
        "league codes: no owner address, a fixed subject, a limit per requester",
        async () => {
          const league = await send(app.url, "/api/leagues", "POST", {
            teamId: paid.teamId,
            editToken: token,
            name: "Prize at evil-site.example",
          });
          assert.equal(league.status, 201, JSON.stringify(league.body));
          const leagueId = (league.body as { league: { id: string } }).league.id;
          const victims = await Promise.all(
            Array.from(
              { length: 12 },
              (_, i) => makeEntry(kv, c, { email: `fan${i}@example.com` }),
            ),
          );
          const answers = [];
          for (const v of victims) {
            answers.push(
              await send(app.url, `/api/leagues/${leagueId}/codes`, "POST", {
                teamId: v.teamId,
              }),
            );
          }
          const statuses = answers.map((a) => a.status);
          assert.ok(statuses.includes(429), `a requester is limited: ${statuses}`);
          assert.ok(statuses.filter((s) => s === 202).length <= 10, `${statuses}`);
          for (const a of answers) {
            assert.doesNotMatch(JSON.stringify(a.body), /\*\*\*@|example\.com/);
          }
          const codes = (await listOutbox(kv)).filter((m) => /join a league/i.test(m.subject));
          assert.ok(codes.length > 0);
          for (const m of codes) assert.doesNotMatch(m.subject, /evil-site/, m.subject);
        },
      );

      await t.step("consent source: the route decides, not the client", async () => {
        const res = await send(app.url, `/api/notifications/${token}`, "PUT", {
          resultEmail: true,
          source: "checkout",
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const view = (await send(app.url, `/api/notifications/${token}`, "GET")).body as {
          resultEmail: { source: string };
        };
        assert.equal(view.resultEmail.source, "my-entries");
      });
    } finally {
      await app.stop();
      kv.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
