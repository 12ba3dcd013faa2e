import assert from "node:assert/strict";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { cancelCompetition } from "@/lib/payments/cancellation.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  makeTeam,
} from "@/tests/helpers/fixtures.ts";

const form = (overrides: Record<string, unknown> = {}) => ({
  name: "Rules Cup",
  league: "PREMIER_LEAGUE",
  entryFee: "5",
  prizePool: "50",
  deadline: new Date(Date.now() + 86_400_000).toISOString(),
  ...overrides,
});

Deno.test("[competitions] an entry fee below the card minimum is refused, per currency", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const post = (body: Record<string, unknown>) =>
      app.request("/api/admin/competitions", { method: "POST", headers: admin, json: form(body) });
    for (
      const [fee, currency, status] of [
        ["0.01", "USD", 400],
        ["0.49", "USD", 400],
        ["0.29", "GBP", 400],
        ["0.5", "USD", 201],
        ["0.3", "GBP", 201],
      ] as const
    ) {
      const res = await post({ entryFee: fee, currency });
      assert.equal(res.status, status, `${fee} ${currency}`);
      const body = await readJsonBody(res);
      if (status === 400) {
        assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [["entryFee"]]);
        assert.match(body.message, currency === "USD" ? /at least \$0\.50/ : /at least £0\.30/);
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("[competitions] the deadline defaults to the match's kick-off", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const [home, away] = [await makeTeam(app.kv), await makeTeam(app.kv)];
    const kickoff = new Date(Date.now() + 3 * 86_400_000);
    kickoff.setUTCSeconds(0, 0);
    const match = await createMatch(app.kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: kickoff.toISOString(),
      stadium: "Anfield",
    });
    const res = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: form({ deadline: undefined, matchId: match.id }),
    });
    assert.equal(res.status, 201);
    const created = await readJsonBody(res);
    assert.equal((await getCompetition(app.kv, created.id))?.deadline, kickoff.toISOString());
    const none = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: form({ deadline: undefined }),
    });
    assert.equal(none.status, 400, "no match, no deadline");
    assert.deepEqual((await readJsonBody(none)).issues[0].path, ["deadline"]);
  } finally {
    await app.close();
  }
});

Deno.test("[pages] a refunded entry's confirmation says so; a finished match says Full time", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { entryFee: 7 });
    const entry = await makeEntry(app.kv, c);
    const before = await (await app.request(`/confirmation/${entry.teamId}`)).text();
    assert.match(before, /You&#x27;re All Set!|You're All Set!/);
    assert.match(before, /<!--frsh-EntryNotifications:/, "notifications offered");
    await cancelCompetition(app.services, c.id, "Storm over the stadium", TEST_ORIGIN);
    const after = await (await app.request(`/confirmation/${entry.teamId}`)).text();
    assert.match(after, /Entry Refunded/);
    assert.match(after, /\$7\.00 has been refunded to your card\./);
    assert.match(after, /Competition cancelled: Storm over the stadium/);
    assert.doesNotMatch(after, /Good luck!/);
    assert.doesNotMatch(after, /frsh-EntryNotifications/, "nothing to be notified of");

    const done = await makeCompetition(app.kv);
    const [home, away] = [await makeTeam(app.kv), await makeTeam(app.kv)];
    const match = await createMatch(app.kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: new Date(Date.now() + 3_600_000).toISOString(),
      stadium: "Old Trafford",
    });
    await updateCompetition(app.kv, done.id, { matchId: match.id, status: "LIVE" });
    await updateCompetition(app.kv, done.id, { status: "COMPLETED" });
    const board = await (await app.request(`/leaderboard/${done.id}`)).text();
    assert.match(board, /data-testid="match-state"[^>]*>Full time</);
    assert.doesNotMatch(board, /In play/i);
  } finally {
    await app.close();
  }
});
