import assert from "node:assert/strict";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { makeLiveMatch, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { feedSender } from "@/tests/helpers/feed.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { listFeedLog } from "@/lib/db/feed.ts";
import { getMatch } from "@/lib/db/matches.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import { feedHeaders } from "@/lib/feed/signature.ts";

async function liveMatch(app: TestApp) {
  const { c, match } = await makeLiveMatch(app.kv);
  const [home, away] = c.teams;
  const { provider, send } = await feedSender(app, match.id);
  const points = async (playerId: number) =>
    (await getPerformancesMap(app.kv, c.id)).get(playerId)?.totalPoints ?? 0;
  const homeFwd = c.players.find((p) => p.teamId === home.id && p.position === "FWD")!;
  const awayFwd = c.players.find((p) => p.teamId === away.id && p.position === "FWD")!;
  return { c, match, provider, send, points, homeFwd, awayFwd };
}

Deno.test("[feed] requests are signed, fresh and used once", async (t) => {
  await withAdminApp(async (app) => {
    const { match, provider, send, homeFwd } = await liveMatch(app);
    await send({ id: "k", type: "KICK_OFF" });
    const body = JSON.stringify({
      id: "e1",
      matchId: match.id,
      type: "SAVE",
      playerId: homeFwd.id,
    });
    const post = (headers: Record<string, string>) =>
      app.request("/api/feed/events", { method: "POST", headers, body });

    await t.step("unsigned, a wrong secret or a changed body: 401", async () => {
      let res = await post({ "content-type": "application/json" });
      assert.equal(res.status, 401);
      await res.body?.cancel();
      res = await post(await feedHeaders("acme", "not the secret", body));
      assert.equal(res.status, 401);
      assert.equal((await readJsonBody(res)).message, "Invalid signature");
      const signed = await feedHeaders("acme", provider.secrets[0].secret, body + " ");
      res = await post(signed);
      assert.equal(res.status, 401);
      await res.body?.cancel();
      res = await post(await feedHeaders("nobody", provider.secrets[0].secret, body));
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
    await t.step("a signature older than 5 minutes: 401", async () => {
      const old = await feedHeaders("acme", provider.secrets[0].secret, body, Date.now() - 301_000);
      const res = await post(old);
      assert.equal(res.status, 401);
      assert.match((await readJsonBody(res)).message, /Signature expired/);
    });
    await t.step("the same signed request twice: the second is refused (409)", async () => {
      const headers = await feedHeaders("acme", provider.secrets[0].secret, body);
      const first = await post(headers);
      assert.equal(first.status, 200);
      assert.equal((await readJsonBody(first)).status, "APPLIED");
      const again = await post(headers);
      assert.equal(again.status, 409);
      assert.match((await readJsonBody(again)).message, /Signature already used/);
    });
  });
});

Deno.test("[feed] idempotent by the provider's event id", async () => {
  await withAdminApp(async (app) => {
    const { c, send, points, homeFwd } = await liveMatch(app);
    await send({ id: "k", type: "KICK_OFF" });
    const before = await points(homeFwd.id);
    const first = await send({ id: "g1", type: "GOAL", playerId: homeFwd.id, minute: 9 });
    assert.equal(first.status, 200);
    assert.equal(first.body.status, "APPLIED");
    const again = await send({ id: "g1", type: "GOAL", playerId: homeFwd.id, minute: 9 });
    assert.equal(again.status, 200);
    assert.equal(again.body.status, "DUPLICATE");
    assert.deepEqual(again.body.events, first.body.events);
    assert.equal((await listGameEvents(app.kv, c.id)).length, 1);
    assert.equal(await points(homeFwd.id), before + 4);
  });
});

Deno.test("[feed] corrections reverse points; out-of-order deliveries are ignored", async (t) => {
  await withAdminApp(async (app) => {
    const { c, match, send, points, homeFwd, awayFwd } = await liveMatch(app);
    await send({ id: "k", type: "KICK_OFF" });
    const score = async () => {
      const m = (await getMatch(app.kv, match.id))!;
      return [m.homeScore, m.awayScore, m.status];
    };

    await t.step("a goal, then corrected to the other scorer (version 2)", async () => {
      await send({ id: "g1", type: "GOAL", playerId: homeFwd.id, minute: 30 });
      assert.equal(await points(homeFwd.id), 4);
      assert.deepEqual(await score(), [1, 0, "LIVE"]);
      const fixed = await send({
        id: "g1",
        version: 2,
        type: "GOAL",
        playerId: awayFwd.id,
        minute: 31,
      });
      assert.equal(fixed.body.status, "APPLIED");
      assert.equal(await points(homeFwd.id), 0);
      assert.equal(await points(awayFwd.id), 4);
      assert.deepEqual(await score(), [0, 1, "LIVE"]);
      const events = await listGameEvents(app.kv, c.id);
      assert.deepEqual(events.map((e) => [e.playerId, e.minute]), [[awayFwd.id, 31]]);
    });
    await t.step("version 1 arriving late changes nothing", async () => {
      const late = await send({ id: "g1", type: "GOAL", playerId: homeFwd.id, minute: 30 });
      assert.equal(late.body.status, "IGNORED");
      assert.equal(await points(homeFwd.id), 0);
      assert.equal(await points(awayFwd.id), 4);
    });
    await t.step("withdrawn: its points and its goal are reversed", async () => {
      const gone = await send({
        id: "g1",
        version: 2,
        withdrawn: true,
        type: "GOAL",
        playerId: awayFwd.id,
      });
      assert.equal(gone.body.status, "WITHDRAWN");
      assert.equal(await points(awayFwd.id), 0);
      assert.deepEqual(await score(), [0, 0, "LIVE"]);
      assert.equal((await listGameEvents(app.kv, c.id)).length, 0);
    });
    await t.step("a withdrawal arriving before its event: the event never counts", async () => {
      const first = await send({
        id: "y1",
        withdrawn: true,
        type: "YELLOW_CARD",
        playerId: homeFwd.id,
      });
      assert.equal(first.body.status, "WITHDRAWN");
      const late = await send({ id: "y1", type: "YELLOW_CARD", playerId: homeFwd.id });
      assert.equal(late.body.status, "IGNORED");
      assert.equal(await points(homeFwd.id), 0);
    });
    await t.step("full time saves the result; a late half time is ignored", async () => {
      await send({ id: "g2", type: "GOAL", playerId: homeFwd.id, minute: 80 });
      const ft = await send({ id: "ft", type: "FULL_TIME", homeScore: 1, awayScore: 0 });
      assert.equal(ft.body.status, "APPLIED");
      assert.deepEqual(await score(), [1, 0, "COMPLETED"]);
      assert.equal((await getMatch(app.kv, match.id))!.result, "HOME_WIN");
      const ht = await send({ id: "ht", type: "HALF_TIME" });
      assert.equal(ht.body.status, "IGNORED");
      assert.deepEqual(await score(), [1, 0, "COMPLETED"]);
    });
  });
});

Deno.test("[feed] refused events keep their reason for review", async (t) => {
  await withAdminApp(async (app) => {
    const { c, match, send, homeFwd } = await liveMatch(app);
    await t.step("before kick-off the match is not live", async () => {
      const res = await send({ id: "early", type: "GOAL", playerId: homeFwd.id });
      assert.equal(res.status, 422);
      assert.equal(res.body.status, "REFUSED");
      assert.match(res.body.message, /is not live \(UPCOMING\)/);
    });
    await t.step("sent again after kick-off, it is applied", async () => {
      assert.equal((await send({ id: "k", type: "KICK_OFF" })).body.status, "APPLIED");
      assert.equal((await getMatch(app.kv, match.id))!.status, "LIVE");
      const res = await send({ id: "early", type: "GOAL", playerId: homeFwd.id });
      assert.equal(res.body.status, "APPLIED");
    });
    await t.step("a player outside the competition is refused", async () => {
      await app.kv.delete(["competition_players", c.id, homeFwd.id]);
      const res = await send({ id: "out", type: "SAVE", playerId: homeFwd.id });
      assert.equal(res.status, 422);
      assert.match(res.body.message, /is not in a competition of match/);
    });
    await t.step("the log keeps the refused ones with their reasons", async () => {
      const refused = await listFeedLog(app.kv, { refusedOnly: true });
      assert.deepEqual(refused.map((r) => r.eventId), ["out", "early"]);
      assert.ok(refused.every((r) => r.reason));
    });
    await t.step("a bad message is a 400 naming the field", async () => {
      const res = await send({ id: "bad", type: "GOAL" });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /playerId is required/);
    });
  });
});

Deno.test("[feed] a secret is rotated without downtime", async () => {
  await withAdminApp(async (app, admin) => {
    const { provider, send } = await liveMatch(app);
    const old = provider.secrets[0].secret;
    const res = await app.request("/api/admin/feed/providers/acme/rotate", {
      method: "POST",
      headers: admin,
    });
    assert.equal(res.status, 200);
    const rotated = await readJsonBody(res);
    const fresh = rotated.secrets[0].secret;
    assert.notEqual(fresh, old);
    assert.equal((await send({ id: "k", type: "KICK_OFF" }, old)).status, 200);
    assert.equal((await send({ id: "h", type: "HALF_TIME" }, fresh)).status, 200);
    const retire = await app.request("/api/admin/feed/providers/acme/retire", {
      method: "POST",
      headers: admin,
    });
    assert.equal(retire.status, 200);
    await retire.body?.cancel();
    assert.equal((await send({ id: "s", type: "SECOND_HALF" }, old)).status, 401);
    assert.equal((await send({ id: "s", type: "SECOND_HALF" }, fresh)).status, 200);
  });
});
