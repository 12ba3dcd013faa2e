import assert from "node:assert/strict";
import zlib from "node:zlib";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { updatePlayer } from "@/lib/db/players.ts";
import { updateTeam } from "@/lib/db/teams.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { CACHE_BUCKET_MS } from "@/lib/render_cache.ts";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

async function get(app: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await app.request(path, { headers: { "accept-encoding": "br", ...headers } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const encoding = res.headers.get("content-encoding");
  const text = new TextDecoder().decode(
    encoding === "br" ? zlib.brotliDecompressSync(bytes) : bytes,
  );
  return { status: res.status, etag: res.headers.get("etag"), encoding, text, res };
}

Deno.test("[render cache] public answers are rendered once per data version", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { name: "Cache Cup" });
    const pages = [
      "/",
      `/team-selection/${c.id}`,
      `/payment/${c.id}`,
      `/leaderboard/${c.id}`,
      "/api/competitions",
      `/api/competitions/${c.id}`,
      `/api/competitions/${c.id}/players`,
      `/api/competitions/${c.id}/prizes`,
    ];

    await t.step("an unchanged answer keeps its ETag and revalidates to 304", async () => {
      const slot = () => Math.floor(Date.now() / CACHE_BUCKET_MS);
      for (const path of pages) {
        // Answers are kept for one time slot: start again if the clock crosses into the next.
        for (let attempt = 1;; attempt++) {
          const started = slot();
          const first = await get(app, path);
          const again = await get(app, path);
          const revalidated = await app.request(path, {
            headers: { "accept-encoding": "br", "if-none-match": first.etag! },
          });
          await revalidated.body?.cancel();
          if (slot() !== started && attempt < 3) continue;
          assert.equal(first.status, 200, path);
          assert.match(
            first.etag ?? "",
            first.text.length >= 1024 ? /^"[0-9a-f]+-br"$/ : /^"[0-9a-f]+"$/,
            path,
          );
          assert.equal(again.etag, first.etag, path);
          assert.equal(again.text, first.text, path);
          assert.equal(revalidated.status, 304, path);
          assert.equal(revalidated.body, null);
          break;
        }
      }
    });

    await t.step("a player renamed by another isolate shows at once", async () => {
      const before = await get(app, `/team-selection/${c.id}`);
      await updatePlayer(app.kv, c.players[0].id, { name: "Renamed Striker" });
      const after = await get(app, `/team-selection/${c.id}`);
      assert.doesNotMatch(before.text, /Renamed Striker/);
      assert.match(after.text, /Renamed Striker/);
      assert.notEqual(after.etag, before.etag);
      const json = await get(app, `/api/competitions/${c.id}/players`);
      assert.match(json.text, /Renamed Striker/);
    });

    await t.step("a team renamed shows on the team builder", async () => {
      await updateTeam(app.kv, c.teams[0].id, { name: "Renamed Rovers" });
      assert.match((await get(app, `/team-selection/${c.id}`)).text, /Renamed Rovers/);
    });

    await t.step("a sale shows at once on its competition; the list keeps its answer", async () => {
      const count = (text: string) =>
        JSON.parse(text).find((x: { id: number }) => x.id === c.id).currentEntries;
      const slot = () => Math.floor(Date.now() / CACHE_BUCKET_MS);
      const started = slot();
      const list = await get(app, "/api/competitions");
      assert.equal(count(list.text), 0);
      await makeEntry(app.kv, c, { teamName: "Fresh Entrants" });
      const own = JSON.parse((await get(app, `/api/competitions/${c.id}`)).text);
      assert.equal(own.currentEntries, 1);
      assert.match((await get(app, `/leaderboard/${c.id}`)).text, /Fresh Entrants/);
      const kept = await get(app, "/api/competitions");
      // Kept for the rest of its slot (a sale moves no marker of the list)...
      if (slot() === started) assert.equal(kept.etag, list.etag);
      // ...and rendered again with the new count once the slot is over.
      app.services.cache.clear();
      assert.equal(count((await get(app, "/api/competitions")).text), 1);
      assert.match((await get(app, "/")).text, /Cache Cup/);
    });

    await t.step("a sale that fills a competition moves the list at once", async () => {
      const small = await makeCompetition(app.kv, { name: "Tiny Cup", maxEntries: 1 });
      const open = (text: string) =>
        JSON.parse(text).find((x: { id: number }) => x.id === small.id).currentEntries;
      assert.equal(open((await get(app, "/api/competitions")).text), 0);
      await makeEntry(app.kv, small, { teamName: "Last Seat" });
      assert.equal(open((await get(app, "/api/competitions")).text), 1);
    });

    await t.step("competition edits, prizes and game events show at once", async () => {
      await updateCompetition(app.kv, c.id, { name: "Edited Cup", status: "LIVE" });
      for (const path of ["/", `/team-selection/${c.id}`, `/payment/${c.id}`]) {
        assert.match((await get(app, path)).text, /Edited Cup/, path);
      }
      await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 77 }]);
      assert.match((await get(app, `/api/competitions/${c.id}/prizes`)).text, /"prize":77/);
      const before = await get(app, `/leaderboard/${c.id}`);
      await createGameEvent(app.kv, c.id, {
        eventType: "GOAL",
        playerId: c.players[4].id,
        description: "Header from the corner",
        minute: 12,
      });
      const after = await get(app, `/leaderboard/${c.id}`);
      assert.doesNotMatch(before.text, /Header from the corner/);
      assert.match(after.text, /Header from the corner/);
    });

    await t.step("a missing competition is not cached: created later, it shows", async () => {
      const missing = await get(app, "/team-selection/999");
      assert.equal(missing.status, 404);
      assert.equal(missing.etag, null);
    });

    await t.step("time-dependent text is rendered for the end of the time slot", async () => {
      const { text } = await get(app, `/team-selection/${c.id}`);
      const renderedAt = text.match(/"renderedAt":"([^"]+)"/)![1];
      assert.equal(Date.parse(renderedAt) % CACHE_BUCKET_MS, 0);
      assert.ok(Date.parse(renderedAt) > Date.now() - 1000);
      assert.ok(Date.parse(renderedAt) <= Date.now() + CACHE_BUCKET_MS);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[render cache] two stores never share answers", async () => {
  const one = await makeTestApp();
  await makeCompetition(one.kv, { name: "Store One Cup" });
  const body = (await get(one, "/api/competitions")).text;
  await one.close();
  const two = await makeTestApp();
  try {
    await makeCompetition(two.kv, { name: "Store Two Cup" });
    const other = (await get(two, "/api/competitions")).text;
    assert.match(body, /Store One Cup/);
    assert.match(other, /Store Two Cup/);
    assert.doesNotMatch(other, /Store One Cup/);
  } finally {
    await two.close();
  }
});
