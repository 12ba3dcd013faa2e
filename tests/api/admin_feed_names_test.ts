/** The admin feed page names each delivery's match and player, not their numbers. */
import assert from "node:assert/strict";
import { namedDeliveries, type NamedDelivery } from "@/lib/api/feed_deliveries.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  startMatch,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import { feedSender } from "@/tests/helpers/feed.ts";

Deno.test("[admin feed] deliveries read 'Home vs Away · Player'; what is gone keeps its number", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const scorerId = validPicks(c)[4];
    const scorer = c.players.find((p) => p.id === scorerId)!;
    const match = await startMatch(app.kv, c);
    const feed = await feedSender(app, match.id);
    assert.equal((await feed.send({ id: "k", type: "KICK_OFF" })).status, 200);
    const goal = await feed.send({ id: "g1", type: "GOAL", playerId: scorerId, minute: 12 });
    assert.equal(goal.status, 200);

    const res = await app.request("/api/admin/feed", { headers: await makeAdminHeaders(app.kv) });
    assert.equal(res.status, 200);
    const { recent } = await readJsonBody(res) as { recent: NamedDelivery[] };
    const label = `${c.teams[0].name} vs ${c.teams[1].name}`;
    const named = (id: string) => {
      const d = recent.find((r) => r.eventId === id)!;
      return [d.matchLabel, d.playerName];
    };
    assert.deepEqual(named("k"), [label, null]);
    assert.deepEqual(named("g1"), [label, scorer.name]);

    // A match or player deleted since keeps its number rather than vanishing.
    const [row] = recent;
    const [gone] = await namedDeliveries(app.kv, [{ ...row, matchId: 987654, playerId: 123456 }]);
    assert.deepEqual([gone.matchLabel, gone.playerName], ["match 987654", "player 123456"]);
  } finally {
    await app.close();
  }
});
