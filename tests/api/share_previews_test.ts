/**
 * Link previews: the Open Graph / Twitter card tags of the contest, leaderboard and confirmation
 * pages (absolute URLs on PUBLIC_URL whatever the request's host, user text escaped), and the
 * 1200×630 PNG preview images of a competition and of a team.
 */
import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { MAX_PARALLEL_RENDERS, MAX_WAITING_RENDERS, PngRenders } from "@/lib/og/png.ts";
import { pngResponse } from "@/lib/og/response.ts";

const PUBLIC_URL = "https://contests.example";
const HOSTILE = `Rovers "><script>alert(1)</script> & <b>Co</b>\u0001`;

/** Sends a GET for `path` as if the request's Host header were evil.example. */
function fromEvilHost(app: TestApp, path: string): Promise<Response> {
  return app.handler(
    new Request(`http://evil.example${path}`, { headers: { host: "evil.example" } }),
  );
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The page's `<meta property|name="…" content="…">` tags, contents decoded. */
function metaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [tag] of html.matchAll(/<meta\s(?:[^>"]|"[^"]*")*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined) tags.set(key, decode(content));
  }
  return tags;
}

async function pageMeta(
  app: TestApp,
  path: string,
): Promise<{ html: string; meta: Map<string, string> }> {
  const res = await fromEvilHost(app, path);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  return { html, meta: metaTags(html) };
}

function assertCard(
  meta: Map<string, string>,
  want: { title: string; url: string; image: string },
) {
  assert.equal(meta.get("og:type"), "website");
  assert.equal(meta.get("og:title"), want.title);
  assert.equal(meta.get("og:url"), want.url);
  assert.equal(meta.get("og:image"), want.image);
  assert.equal(meta.get("og:image:width"), "1200");
  assert.equal(meta.get("og:image:height"), "630");
  assert.equal(meta.get("twitter:card"), "summary_large_image");
  assert.equal(meta.get("twitter:title"), want.title);
  assert.equal(meta.get("twitter:image"), want.image);
  assert.ok(meta.get("og:description"), "a description");
  assert.equal(meta.get("twitter:description"), meta.get("og:description"));
  for (const [key, value] of meta) {
    assert.ok(!value.includes("evil.example"), `${key} never names the request's host`);
  }
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

Deno.test("[share] the contest page's preview: name, fee, prize pool, deadline, absolute URLs on PUBLIC_URL", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, {
      name: "Saturday Showdown",
      entryFee: 12.5,
      prizePool: 2500,
      deadline: "2030-12-06T15:00:00.000Z",
    });
    const { meta } = await pageMeta(app, `/team-selection/${c.id}`);
    assertCard(meta, {
      title: "Saturday Showdown",
      url: `${PUBLIC_URL}/team-selection/${c.id}`,
      image: `${PUBLIC_URL}/og/competition/${c.id}.png`,
    });
    assert.equal(
      meta.get("og:description"),
      "Entry fee $12.50 · Prize pool $2,500.00 · Deadline 6 Dec 2030, 15:00 UTC",
    );
  }, { config: { publicUrl: PUBLIC_URL } });
});

Deno.test("[share] the leaderboard's preview says the status once the contest is live", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Live Cup", status: "LIVE" });
    const { meta } = await pageMeta(app, `/leaderboard/${c.id}`);
    assertCard(meta, {
      title: "Live Cup",
      url: `http://localhost:8123/leaderboard/${c.id}`,
      image: `http://localhost:8123/og/competition/${c.id}.png`,
    });
    assert.match(meta.get("og:description")!, /· Status Live now$/);
  }, { config: { port: 8123 } });
});

Deno.test("[share] a shared team link (?team=) previews the team; a team of another contest does not", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Team Cup" });
    const other = await makeCompetition(app.kv);
    const entry = await makeEntry(app.kv, c, { teamName: "Rovers" });
    const stranger = await makeEntry(app.kv, other);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const path = `/leaderboard/${c.id}?team=${entry.teamId}`;
    const { html, meta } = await pageMeta(app, path);
    assertCard(meta, {
      title: "Rovers · Team Cup",
      url: `${PUBLIC_URL}${path}`,
      image: `${PUBLIC_URL}/og/team/${entry.teamId}.png`,
    });
    assert.ok(html.includes(`"openTeam":{"id":"${entry.teamId}"`), "the island opens its dialog");

    const foreign = await pageMeta(app, `/leaderboard/${c.id}?team=${stranger.teamId}`);
    assert.equal(foreign.meta.get("og:image"), `${PUBLIC_URL}/og/competition/${c.id}.png`);
    assert.equal(foreign.meta.get("og:url"), `${PUBLIC_URL}/leaderboard/${c.id}`);
    assert.ok(!foreign.html.includes(stranger.teamId), "another contest's team is not shown");
  }, { config: { publicUrl: PUBLIC_URL } });
});

Deno.test("[share] the confirmation page previews the team and points the link at its leaderboard", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Sunday Cup" });
    const entry = await makeEntry(app.kv, c, { teamName: "Rovers" });
    const { html, meta } = await pageMeta(app, `/confirmation/${entry.teamId}`);
    assertCard(meta, {
      title: "Rovers · Sunday Cup",
      url: `${PUBLIC_URL}/leaderboard/${c.id}?team=${entry.teamId}`,
      image: `${PUBLIC_URL}/og/team/${entry.teamId}.png`,
    });
    assert.match(html, /Copy team ID/);
    assert.match(html, />Share</);
  }, { config: { publicUrl: PUBLIC_URL } });
});

Deno.test("[share] names in the meta tags are escaped, never markup", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: `Cup "><script>alert(1)</script>` });
    const entry = await makeEntry(app.kv, c, { teamName: HOSTILE });
    for (const path of [`/team-selection/${c.id}`, `/confirmation/${entry.teamId}`]) {
      const { html, meta } = await pageMeta(app, path);
      assert.ok(!html.includes("<script>alert(1)"), `${path}: no raw markup`);
      assert.ok(meta.get("og:title")!.includes(`Cup "><script>alert(1)</script>`), path);
    }
  }, { config: { publicUrl: PUBLIC_URL } });
});

Deno.test("[share] preview images: 200 PNG 1200×630, cached, hostile team names rendered as text", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: `Cup </text><svg onload="x">` });
    const entry = await makeEntry(app.kv, c, { teamName: HOSTILE });
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await savePerformances(app.kv, c.id, [{
      playerId: entry.playerIds[0],
      minutesPlayed: 90,
      goals: 1,
    }]);
    for (const path of [`/og/competition/${c.id}.png`, `/og/team/${entry.teamId}.png`]) {
      await t.step(path, async () => {
        const res = await fromEvilHost(app, path);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "image/png");
        assert.equal(res.headers.get("cache-control"), "public, max-age=300");
        assert.equal(res.headers.get("content-encoding"), null, "a PNG is not compressed again");
        assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
          width: 1200,
          height: 630,
        });
        const etag = res.headers.get("etag");
        assert.ok(etag, "an ETag");
        const again = await app.request(`${path}?utm_source=chat`, {
          headers: { "if-none-match": etag },
        });
        assert.equal(again.status, 304, "a query string reuses the kept render");
      });
    }
  });
});

Deno.test("[share] preview images of unknown or malformed ids answer 404", async () => {
  await withTestApp(async (app) => {
    const paths = [
      "/og/competition/9999.png",
      "/og/competition/abc.png",
      "/og/competition/0.png",
      "/og/team/FFT-AAAAAAAA.png",
      `/og/team/${"x".repeat(3000)}.png`,
      "/og/team/%3Cscript%3E.png",
    ];
    for (const path of paths) {
      const res = await app.request(path);
      await res.body?.cancel();
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get("cache-control"), "no-store", path);
    }
  });
});

/** `path` with its `n`-th letter or digit after the prefix percent-encoded (upper or lower case). */
function encodeAt(path: string, prefix: string, n: number, lower = false): string {
  const rest = path.slice(prefix.length);
  const i = [...rest].findIndex((ch, k) => k >= n && /[A-Za-z0-9]/.test(ch));
  const hex = rest.charCodeAt(i).toString(16).toUpperCase();
  return `${prefix}${rest.slice(0, i)}%${lower ? hex.toLowerCase() : hex}${rest.slice(i + 1)}`;
}

Deno.test("[share] one URL per preview image: other spellings redirect 301 before any render", async (t) => {
  await withTestApp(async (app) => {
    const renderCounts = app.services.pngRenders.counts;
    const c = await makeCompetition(app.kv, { name: "Spelling Cup" });
    const entry = await makeEntry(app.kv, c, { teamName: "Spellers" });
    const team = `/og/team/${entry.teamId}.png`;
    const competition = `/og/competition/${c.id}.png`;
    await t.step(
      "percent-encoded spellings answer 301 to the canonical path, rendering nothing",
      async () => {
        const before = renderCounts.rendered;
        const spellings = [
          [encodeAt(team, "/og/team/", 0), team],
          [encodeAt(team, "/og/team/", 5), team],
          [encodeAt(team, "/og/team/", 0, true), team],
          [encodeAt(encodeAt(team, "/og/team/", 0), "/og/team/", 6), team],
          [`${encodeAt(team, "/og/team/", 2)}?utm_source=chat`, team],
          [encodeAt(competition, "/og/competition/", 0), competition],
        ] as const;
        for (const [path, canonical] of spellings) {
          assert.notEqual(path, canonical);
          const res = await app.request(path, { redirect: "manual" });
          await res.body?.cancel();
          assert.equal(res.status, 301, path);
          assert.equal(res.headers.get("location"), canonical, path);
        }
        assert.equal(renderCounts.rendered, before, "no spelling rendered an image");
      },
    );
    await t.step("the canonical path renders once per content, across time slots", async () => {
      const before = renderCounts.rendered;
      for (const path of [team, competition]) {
        const first = await app.request(path);
        assert.equal(first.status, 200, path);
        const bytes = new Uint8Array(await first.arrayBuffer());
        app.services.cache.clear(); // a new time slot drops the kept answers
        const again = await app.request(path);
        assert.deepEqual(new Uint8Array(await again.arrayBuffer()), bytes);
      }
      assert.equal(
        renderCounts.rendered - before,
        2,
        "one render each, the second fetch reused it",
      );
    });
    await t.step("a new content version (a point scored) is a new render", async () => {
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      await savePerformances(app.kv, c.id, [{ playerId: entry.playerIds[0], goals: 2 }]);
      const before = renderCounts.rendered;
      const res = await app.request(team);
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.equal(renderCounts.rendered - before, 1);
    });
  });
});

Deno.test("[share] preview renders: at most 2 at once per isolate, a few wait, the rest get 503", async () => {
  const renders = new PngRenders(); // an isolate's renders, as in its Services
  const renderCounts = renders.counts;
  const before = { ...renderCounts };
  const svgs = Array.from(
    { length: MAX_PARALLEL_RENDERS + MAX_WAITING_RENDERS + 3 },
    (_, i) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text y="15">${i}-${Date.now()}</text></svg>`,
  );
  const results = await Promise.allSettled(svgs.map((svg) => pngResponse(renders, svg)));
  const statuses = results.map((r) => r.status === "fulfilled" ? r.value.status : 0);
  assert.equal(
    statuses.filter((s) => s === 200).length,
    MAX_PARALLEL_RENDERS + MAX_WAITING_RENDERS,
  );
  const refused = results.filter((r) => r.status === "fulfilled" && r.value.status === 503);
  assert.equal(refused.length, 3);
  for (const r of refused) {
    assert.equal((r as PromiseFulfilledResult<Response>).value.headers.get("retry-after"), "2");
  }
  for (const r of results) if (r.status === "fulfilled") await r.value.body?.cancel();
  assert.ok(renderCounts.peak <= MAX_PARALLEL_RENDERS, `peak ${renderCounts.peak}`);
  assert.equal(renderCounts.peak, MAX_PARALLEL_RENDERS);
  assert.equal(renderCounts.rendered - before.rendered, MAX_PARALLEL_RENDERS + MAX_WAITING_RENDERS);
  const later = await pngResponse(renders, svgs.at(-1)!);
  assert.equal(later.status, 200, "a refused render is tried again once the queue drains");
  await later.body?.cancel();
});
