import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { updateMatch } from "@/lib/db/matches.ts";
import { HIDDEN_PICK } from "@/lib/api/pick_privacy.ts";
import { teamCard } from "@/lib/og/previews.ts";
import { teamCardSvg } from "@/lib/og/cards.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { entryBody, makeEntry, payTestIntent } from "@/tests/helpers/fixtures.ts";
import { makeRoundContest, playerOf } from "@/tests/helpers/rounds.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

Deno.test("[hidden picks] nobody sees a pick before it locks, on every public surface", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeRoundContest(app.kv, [
      new Date(Date.now() + HOUR),
      new Date(Date.now() + 3 * HOUR),
    ], { lateSwap: true });
    const [a, b, x, y] = c.teams;
    const early = [playerOf(c, a, "GK"), playerOf(c, b, "DEF")];
    const late = [playerOf(c, x, "DEF"), playerOf(c, x, "MID"), playerOf(c, y, "FWD")];
    const entry = await makeEntry(app.kv, c as never, {
      teamName: "Secret XI",
      playerIds: [...early, ...late].map((p) => p.id),
    });
    const names = (text: string, players: typeof early) =>
      players.filter((p) => text.includes(p.name)).map((p) => p.name);
    const surfaces = async () => ({
      details: await (await app.request(`/api/entries/${entry.teamId}/details`)).text(),
      players: await (await app.request(`/api/entries/${entry.teamId}/players`)).text(),
      entry: await (await app.request(`/api/entries/${entry.teamId}`)).text(),
      leaderboard: await (await app.request(`/api/competitions/${c.id}/leaderboard`)).text(),
      board: await (await app.request(`/leaderboard/${c.id}`)).text(),
      confirmation: await (await app.request(`/confirmation/${entry.teamId}`)).text(),
    });

    await t.step(
      "before any kick-off: no pick anywhere, 'Hidden until kick-off' instead",
      async () => {
        const seen = await surfaces();
        for (const [surface, text] of Object.entries(seen)) {
          assert.deepEqual(names(text, [...early, ...late]), [], `${surface} shows a pick`);
        }
        const details = JSON.parse(seen.details);
        assert.equal(details.players.length, 0);
        assert.equal(details.hiddenPicks, 5);
        assert.match(seen.confirmation, new RegExp(HIDDEN_PICK));
        const image = await app.request(`/og/team/${entry.teamId}.png`);
        assert.equal(image.status, 200);
        assert.match(image.headers.get("content-type")!, /^image\/png/);
        // The share and preview image is drawn from this card.
        const card = await teamCard(app.kv, app.services.leaderboards, entry.teamId);
        const svg = teamCardSvg(card!);
        assert.deepEqual(names(svg, [...early, ...late]), [], "the image shows a pick");
        assert.equal(svg.split(HIDDEN_PICK).length - 1, 5, "five hidden rows");
      },
    );

    await t.step("the owner sees every pick through the edit link", async () => {
      const view = await readJsonBody(await app.request(`/api/team-edits/${entry.editToken}`));
      assert.deepEqual(view.playerIds, entry.playerIds);
      const page = await (await app.request(`/edit/${entry.editToken}`)).text();
      for (const p of [...early, ...late]) assert.match(page, new RegExp(p.name));
    });

    await t.step("the first match kicked off: its picks show, the others stay hidden", async () => {
      await updateCompetition(app.kv, c.id, {
        deadline: new Date(Date.now() - 2 * MINUTE).toISOString(),
      });
      await updateMatch(app.kv, c.matches[0].id, {
        kickoffTime: new Date(Date.now() - MINUTE).toISOString(),
      });
      const seen = await surfaces();
      const details = JSON.parse(seen.details);
      assert.deepEqual(
        details.players.map((p: { id: number }) => p.id).sort(),
        early.map((p) => p.id).sort(),
      );
      assert.equal(details.hiddenPicks, 3);
      assert.deepEqual(names(seen.players, early).sort(), early.map((p) => p.name).sort());
      for (const [surface, text] of Object.entries(seen)) {
        assert.deepEqual(names(text, late), [], `${surface} shows an open pick`);
      }
      const svg = teamCardSvg((await teamCard(app.kv, app.services.leaderboards, entry.teamId))!);
      assert.deepEqual(names(svg, late), [], "the image shows an open pick");
      assert.equal(svg.split(HIDDEN_PICK).length - 1, 3);
    });

    await t.step("every match kicked off: the whole team shows", async () => {
      await updateMatch(app.kv, c.matches[1].id, {
        kickoffTime: new Date(Date.now() - MINUTE).toISOString(),
      });
      const details = await readJsonBody(
        await app.request(`/api/entries/${entry.teamId}/details`),
      );
      assert.equal(details.players.length, 5);
      assert.equal(details.hiddenPicks, 0);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[hidden picks] the payer's own browser sees the whole team on its confirmation page", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeRoundContest(app.kv, [
      new Date(Date.now() + HOUR),
      new Date(Date.now() + 3 * HOUR),
    ], { lateSwap: true });
    const paymentId = await payTestIntent(app, c.id);
    const res = await app.request("/api/entries", {
      method: "POST",
      json: entryBody(c as never, paymentId),
    });
    assert.equal(res.status, 201);
    const cookie = res.headers.get("set-cookie")!;
    const { teamId, playerIds } = await readJsonBody(res);
    assert.match(
      cookie,
      new RegExp(`^fft_owner_${teamId}=[0-9a-f]{32}; Path=/confirmation/${teamId};`),
    );
    assert.match(cookie, /HttpOnly; SameSite=Strict/);
    const picked = c.players.filter((p) => playerIds.includes(p.id));

    const own = await app.request(`/confirmation/${teamId}`, {
      headers: { cookie: cookie.split(";")[0] },
    });
    assert.equal(own.headers.get("cache-control"), "private, no-store");
    const mine = await own.text();
    for (const p of picked) assert.ok(mine.includes(p.name), `${p.name} shown to the payer`);

    const forged = cookie.split(";")[0].replace(/=[0-9a-f]{4}/, "=0000");
    for (const headers of [{} as Record<string, string>, { cookie: forged }]) {
      const other = await (await app.request(`/confirmation/${teamId}`, { headers })).text();
      for (const p of picked) assert.ok(!other.includes(p.name), `${p.name} hidden from others`);
    }
  } finally {
    await app.close();
  }
});
