import assert from "node:assert/strict";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { EDIT_ALL_KICKED_OFF } from "@/lib/db/entry_edits.ts";
import { setLiveScore, updateMatch } from "@/lib/db/matches.ts";
import { LOCKED_DEADLINE } from "@/lib/domain/competition.ts";
import type { Entry, Player } from "@/lib/domain/types.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { makeEntry } from "@/tests/helpers/fixtures.ts";
import { makeRoundContest, playerOf, type RoundContest } from "@/tests/helpers/rounds.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** "15:00 UTC" of an ISO time. */
const clock = (iso: string) => `${iso.slice(11, 16)} UTC`;

function put(app: TestApp, entry: Entry, playerIds: number[], revision: number) {
  return app.request(`/api/team-edits/${entry.editToken}`, {
    method: "PUT",
    json: { teamName: entry.teamName, playerIds, revision },
  });
}

/**
 * A late-swap contest on two matches (a v b first, x v y second, both ahead) and an entry with
 * two picks of the first match and three of the second.
 */
async function lateSwapContest(app: TestApp, kickoffs: Date[], lateSwap = true) {
  const c = await makeRoundContest(app.kv, kickoffs, { lateSwap });
  const [a, b, x, y] = c.teams;
  const picks = [
    playerOf(c, a, "GK"),
    playerOf(c, b, "DEF"),
    playerOf(c, x, "DEF"),
    playerOf(c, x, "MID"),
    playerOf(c, y, "FWD"),
  ];
  const entry = await makeEntry(app.kv, c as never, { playerIds: picks.map((p) => p.id) });
  return { c, entry, picks, a, b, x, y };
}

/** The first match kicked off a minute ago, the deadline passed; the second is ahead. */
async function firstMatchUnderWay(app: TestApp, c: RoundContest) {
  const kickoff = new Date(Date.now() - MINUTE).toISOString();
  await updateCompetition(app.kv, c.id, {
    deadline: new Date(Date.now() - 2 * MINUTE).toISOString(),
  });
  await updateMatch(app.kv, c.matches[0].id, { kickoffTime: kickoff });
  return kickoff;
}

const ids = (players: Player[]) => players.map((p) => p.id);

Deno.test("[late swap] after the deadline each pick locks at its own match's kick-off", async (t) => {
  const app = await makeTestApp();
  try {
    const { c, entry, picks, a, y } = await lateSwapContest(app, [
      new Date(Date.now() + HOUR),
      new Date(Date.now() + 3 * HOUR),
    ]);
    const kickoff = await firstMatchUnderWay(app, c);
    const second = c.matches[1].kickoffTime;
    let revision = 0;

    await t.step("the edit link shows each pick's lock", async () => {
      const view = await readJsonBody(await app.request(`/api/team-edits/${entry.editToken}`));
      assert.equal(view.locked, null, "open: the second match has not kicked off");
      assert.deepEqual(view.locks[picks[0].id], { lockAt: kickoff, locked: true });
      assert.deepEqual(view.locks[picks[4].id], { lockAt: second, locked: false });
    });

    await t.step("an open pick swaps for an open player", async () => {
      const swapped = [...ids(picks.slice(0, 4)), playerOf(c, y, "DEF").id];
      const res = await put(app, entry, swapped, revision);
      assert.equal(res.status, 200);
      revision = (await readJsonBody(res)).revision;
      assert.deepEqual((await getEntryByTeamId(app.kv, entry.teamId))!.playerIds, swapped);
    });

    await t.step("a locked pick cannot go out: 409 naming him and his lock time", async () => {
      const before = await getEntryByTeamId(app.kv, entry.teamId);
      const res = await put(
        app,
        entry,
        [playerOf(c, y, "GK").id, ...before!.playerIds.slice(1)],
        revision,
      );
      assert.equal(res.status, 409);
      const body = await readJsonBody(res);
      assert.equal(body.message, `${picks[0].name} locked at ${clock(kickoff)}`);
      assert.deepEqual(await getEntryByTeamId(app.kv, entry.teamId), before, "nothing changed");
    });

    await t.step("a locked player cannot come in", async () => {
      const before = await getEntryByTeamId(app.kv, entry.teamId);
      const incoming = playerOf(c, a, "MID");
      const team = [...before!.playerIds.slice(0, 4), incoming.id];
      const res = await put(app, entry, team, revision);
      assert.equal(res.status, 409);
      assert.equal(
        (await readJsonBody(res)).message,
        `${incoming.name} locked at ${clock(kickoff)}`,
      );
      assert.deepEqual(await getEntryByTeamId(app.kv, entry.teamId), before);
    });

    await t.step("the team rules hold for the whole team after a swap", async () => {
      const before = await getEntryByTeamId(app.kv, entry.teamId);
      // Open picks only, but the team would have three forwards (two at most).
      const team = [
        ...before!.playerIds.slice(0, 2),
        playerOf(c, c.teams[2], "FWD").id,
        before!.playerIds[3],
        playerOf(c, y, "FWD").id,
      ];
      const threeForwards = [...team.slice(0, 3), playerOf(c, y, "FWD").id, team[4]];
      const res = await put(app, entry, threeForwards, revision);
      assert.equal(res.status, 400);
      assert.deepEqual(await getEntryByTeamId(app.kv, entry.teamId), before);
    });

    await t.step("the contest going LIVE does not stop late swap", async () => {
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      const before = await getEntryByTeamId(app.kv, entry.teamId);
      const team = [...before!.playerIds.slice(0, 4), playerOf(c, y, "FWD").id];
      const res = await put(app, entry, team, revision);
      assert.equal(res.status, 200);
      revision = (await readJsonBody(res)).revision;
    });

    await t.step(
      "a kick-off reported early locks its picks before the scheduled time",
      async () => {
        await setLiveScore(app.kv, c.matches[1].id, 0, 0);
        const before = await getEntryByTeamId(app.kv, entry.teamId);
        const team = [...before!.playerIds.slice(0, 4), playerOf(c, y, "DEF").id];
        const res = await put(app, entry, team, revision);
        assert.equal(res.status, 409);
        const body = await readJsonBody(res);
        assert.equal(body.message, EDIT_ALL_KICKED_OFF, "every match is now under way");
        const view = await readJsonBody(await app.request(`/api/team-edits/${entry.editToken}`));
        assert.equal(view.locked, EDIT_ALL_KICKED_OFF);
        assert.deepEqual(await getEntryByTeamId(app.kv, entry.teamId), before);
      },
    );
  } finally {
    await app.close();
  }
});

Deno.test("[late swap] off: the deadline locks the whole team, as before", async () => {
  const app = await makeTestApp();
  try {
    const { c, entry, picks, y } = await lateSwapContest(
      app,
      [new Date(Date.now() + HOUR), new Date(Date.now() + 3 * HOUR)],
      false,
    );
    await firstMatchUnderWay(app, c);
    const res = await put(app, entry, [...ids(picks.slice(0, 4)), playerOf(c, y, "DEF").id], 0);
    assert.equal(res.status, 409);
    assert.equal((await readJsonBody(res)).message, LOCKED_DEADLINE);
  } finally {
    await app.close();
  }
});

Deno.test("[late swap] swaps racing the kick-off: none is saved after it", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("the scheduled time passes during the swaps", async () => {
      const { c, entry, picks, a } = await lateSwapContest(app, [
        new Date(Date.now() + HOUR),
        new Date(Date.now() + 3 * HOUR),
      ]);
      await updateCompetition(app.kv, c.id, {
        deadline: new Date(Date.now() - MINUTE).toISOString(),
      });
      // The first match kicks off while the swaps go on.
      const kickoffAt = Date.now() + 1500;
      await updateMatch(app.kv, c.matches[0].id, {
        kickoffTime: new Date(kickoffAt).toISOString(),
      });
      // GK a ↔ GK b: both play the first match; every request swaps the one held.
      const gks = [picks[0].id, playerOf(c, a === c.teams[0] ? c.teams[1] : a, "GK").id];
      const others = ids(picks.slice(1));
      let revision = 0;
      let saved = 0;
      let refused = 0;
      let held = gks[0];
      while (refused < 3) {
        const next = held === gks[0] ? gks[1] : gks[0];
        const res = await put(app, entry, [next, ...others], revision);
        const body = await readJsonBody(res);
        if (res.status === 200) {
          assert.ok(Date.parse(body.editedAt) < kickoffAt, "decided before the kick-off");
          revision = body.revision;
          held = next;
          saved++;
        } else {
          assert.equal(res.status, 409, JSON.stringify(body));
          assert.match(body.message, / locked at \d\d:\d\d UTC$/);
          assert.ok(Date.now() >= kickoffAt, "refused only once kicked off");
          refused++;
        }
      }
      assert.ok(saved > 0, "some swaps came before the kick-off");
      const entryNow = await getEntryByTeamId(app.kv, entry.teamId);
      assert.equal(entryNow!.revision, saved);
      assert.ok(Date.parse(entryNow!.editedAt!) < kickoffAt);
    });

    await t.step("a kick-off reported meanwhile (the match under way) wins the race", async () => {
      const { c, entry, picks } = await lateSwapContest(app, [
        new Date(Date.now() + HOUR),
        new Date(Date.now() + 3 * HOUR),
      ]);
      await updateCompetition(app.kv, c.id, {
        deadline: new Date(Date.now() - MINUTE).toISOString(),
      });
      const gks = [picks[0].id, playerOf(c, c.teams[1], "GK").id];
      const others = ids(picks.slice(1));
      let revision = 0;
      let saves = 0;
      let reported = false;
      let report: Promise<void> | null = null;
      let held = gks[0];
      for (let i = 1; i < 40; i++) {
        const startedAfter: boolean = reported;
        const next = held === gks[0] ? gks[1] : gks[0];
        const res = await put(app, entry, [next, ...others], revision);
        const body = await readJsonBody(res);
        if (res.status === 200) {
          assert.equal(startedAfter, false, "a swap started after the kick-off was saved");
          revision = body.revision;
          held = next;
          saves++;
        } else {
          assert.equal(res.status, 409);
          assert.match(body.message, / locked at /);
        }
        if (saves === 5 && !report) {
          report = setLiveScore(app.kv, c.matches[0].id, 0, 0).then(() => {
            reported = true;
          });
        }
      }
      await report;
      await waitFor("the kick-off report", () => reported);
      assert.equal((await getEntryByTeamId(app.kv, entry.teamId))!.revision, saves);
      assert.ok(saves >= 5 && saves < 39, `saves: ${saves}`);
      assert.equal((await getCompetition(app.kv, c.id))!.lateSwap, true);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[late swap] a postponed match's players can be swapped until the last kick-off", async (t) => {
  const app = await makeTestApp();
  try {
    const { c, entry, picks, x, y } = await lateSwapContest(app, [
      new Date(Date.now() + HOUR),
      new Date(Date.now() + 3 * HOUR),
    ]);
    await firstMatchUnderWay(app, c);
    // The second match is postponed; its scheduled time is now in the past.
    await updateMatch(app.kv, c.matches[1].id, {
      kickoffTime: new Date(Date.now() - MINUTE).toISOString(),
      status: "POSTPONED",
    } as never);
    let revision = 0;

    await t.step(
      "with no other match still to come, the postponed picks are locked too",
      async () => {
        const view = await readJsonBody(await app.request(`/api/team-edits/${entry.editToken}`));
        // Only the first match is played now: the postponed picks lock at its kick-off (past).
        assert.equal(view.locks[picks[2].id].locked, true);
        assert.equal(view.locked, EDIT_ALL_KICKED_OFF);
      },
    );

    await t.step("with a later match in the round, they swap until it kicks off", async () => {
      await updateMatch(app.kv, c.matches[0].id, {
        kickoffTime: new Date(Date.now() + 2 * HOUR).toISOString(),
      });
      const view = await readJsonBody(await app.request(`/api/team-edits/${entry.editToken}`));
      assert.equal(view.locks[picks[2].id].locked, false, "postponed pick open");
      assert.equal(view.locks[picks[2].id].lockAt, view.locks[picks[0].id].lockAt);
      const team = [...ids(picks.slice(0, 2)), playerOf(c, x, "MID").id, picks[3].id, picks[4].id]
        .map((id, i) => i === 2 ? playerOf(c, y, "DEF").id : id);
      const res = await put(app, entry, team, revision);
      assert.equal(res.status, 200, JSON.stringify(await readJsonBody(res.clone())));
      revision = (await readJsonBody(res)).revision;
    });
  } finally {
    await app.close();
  }
});
