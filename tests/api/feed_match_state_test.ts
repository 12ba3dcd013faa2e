/**
 * The feed's match messages drive the contests, and its corrections hold after full time (the
 * scenarios are in tests/helpers/feed_scenarios.ts; feed_servers_test.ts runs them on main.ts and
 * on `npm start`).
 */
import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createMatch } from "@/lib/db/matches.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { keys } from "@/lib/store/keys.ts";
import { withTestApp } from "@/tests/helpers/app.ts";
import { feedSender } from "@/tests/helpers/feed.ts";
import {
  correctionAfterFullTime,
  earlyKickOffDrivesContests,
} from "@/tests/helpers/feed_scenarios.ts";
import { makeCompetition, payTestIntent, validTeams } from "@/tests/helpers/fixtures.ts";

Deno.test("[feed] a correction after full time replaces the goal; a refused one changes nothing", async () => {
  await withTestApp((app) => correctionAfterFullTime(app));
});

Deno.test("[feed] an early kick-off closes entries and starts the contests at once; full time saves the result", async () => {
  await withTestApp((app) => earlyKickOffDrivesContests(app));
});

Deno.test("[feed] entries racing the kick-off: each is made before it or refused, none after", async () => {
  await withTestApp(async (app) => {
    const scheduled = new Date(Date.now() + 7_200_000).toISOString();
    const c = await makeCompetition(app.kv, { autoStatus: true, maxEntriesPerPerson: 50 });
    const match = await createMatch(app.kv, {
      homeTeamId: c.teams[0].id,
      awayTeamId: c.teams[1].id,
      league: "PREMIER_LEAGUE",
      kickoffTime: scheduled,
      stadium: "The Ground",
    });
    await updateCompetition(app.kv, c.id, { matchId: match.id, deadline: scheduled });
    const { send } = await feedSender(app, match.id);
    const teams = validTeams(c);
    const payments: string[] = [];
    for (let i = 0; i < 16; i++) payments.push(await payTestIntent(app, c.id));

    const [kickOff, ...answers] = await Promise.all([
      send({ id: "k", type: "KICK_OFF" }),
      ...payments.map(async (stripePaymentId, i) => {
        const res = await app.request("/api/entries", {
          method: "POST",
          json: {
            competitionId: c.id,
            email: `fan${i}@example.com`,
            teamName: `Racer ${i}`,
            playerIds: teams[i % teams.length],
            stripePaymentId,
          },
        });
        await res.body?.cancel();
        return res.status;
      }),
    ]);
    assert.equal(kickOff.body.status, "APPLIED");
    assert.ok(answers.every((s) => s === 201 || s === 409), `answers: ${answers}`);
    const made = answers.filter((s) => s === 201).length;

    const stored = await app.kv.get<Competition>(keys.competition(c.id));
    assert.equal(stored.value!.status, "LIVE");
    assert.equal(stored.value!.currentEntries, made);
    // An entry committed after the kick-off would have written the competition's count after the
    // kick-off wrote its status: every entry's commit comes before the record's last write.
    const ids = [];
    for await (const e of app.kv.list({ prefix: keys.entriesByCompetition(c.id) })) ids.push(e);
    assert.equal(ids.length, made);
    for (const { value } of ids) {
      const entry = await app.kv.get(keys.entry(value as number));
      assert.ok(entry.versionstamp! < stored.versionstamp!, "entry committed before the kick-off");
    }
  });
});
