import assert from "node:assert/strict";
import { keys } from "@/lib/store/keys.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  makePlayer,
  makeTeam,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";

const DAY = 86_400_000;

function competitionForm(overrides: Record<string, unknown> = {}) {
  return {
    name: "Saturday Showdown",
    league: "PREMIER_LEAGUE",
    description: "Five a side",
    entryFee: "10",
    prizePool: "100",
    currency: "USD",
    prizeType: "CASH",
    deadline: new Date(Date.now() + 7 * DAY).toISOString(),
    status: "UPCOMING",
    maxEntries: 100,
    maxPlayersPerTeam: 3,
    maxForwards: 2,
    minDefenders: 1,
    salaryCap: 5000,
    ...overrides,
  };
}

Deno.test("[competitions] public list is sorted by deadline ascending", async () => {
  await withAdminApp(async (app) => {
    const later = await makeCompetition(app.kv, {
      name: "Later",
      deadline: new Date(Date.now() + 5 * DAY).toISOString(),
    });
    const sooner = await makeCompetition(app.kv, {
      name: "Sooner",
      deadline: new Date(Date.now() + DAY).toISOString(),
    });
    const res = await app.request("/api/competitions");
    assert.equal(res.status, 200);
    const list = await readJsonBody(res);
    assert.deepEqual(list.map((c: { id: number }) => c.id), [sooner.id, later.id]);
    assert.equal(typeof list[0].entryFee, "number");
    assert.equal(list[0].currentEntries, 0);
  });
});

Deno.test("[competitions] GET one: found, 404 JSON, 400 for a bad id", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, {}, { players: false });
    const found = await app.request(`/api/competitions/${c.id}`);
    assert.equal(found.status, 200);
    const body = await readJsonBody(found);
    assert.equal(body.name, c.name);
    assert.equal(body.entryFee, 10);

    const missing = await app.request("/api/competitions/999");
    assert.equal(missing.status, 404);
    assert.deepEqual(await readJsonBody(missing), { message: "Competition not found" });

    const bad = await app.request("/api/competitions/abc");
    assert.equal(bad.status, 400);
    assert.deepEqual(await readJsonBody(bad), {
      message: "Invalid id",
      issues: [{ path: ["id"], message: "Invalid id" }],
    });
  });
});

Deno.test("[competitions] players come with their team and numeric salary", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const res = await app.request(`/api/competitions/${c.id}/players`);
    assert.equal(res.status, 200);
    const players = await readJsonBody(res);
    assert.equal(players.length, 10);
    for (const p of players) {
      assert.equal(typeof p.salary, "number");
      assert.ok(p.team && typeof p.team.name === "string" && "shortName" in p.team);
    }
    const missing = await app.request("/api/competitions/999/players");
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
  });
});

Deno.test("[competitions] public prizes list gives id, position, prize, prizeType", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, {}, { players: false });
    await setPrizeStructure(app.kv, c.id, [{ position: 2, prize: 30 }, { position: 1, prize: 70 }]);
    const res = await app.request(`/api/competitions/${c.id}/prizes`);
    assert.equal(res.status, 200);
    const prizes = await readJsonBody(res);
    assert.deepEqual(
      prizes.map((p: { position: number; prize: number }) => [p.position, p.prize]),
      [
        [1, 70],
        [2, 30],
      ],
    );
    assert.deepEqual(Object.keys(prizes[0]).sort(), [
      "customPrizeDescription",
      "id",
      "position",
      "prize",
      "prizeType",
    ]);
  });
});

Deno.test("[admin competitions] create with defaults, list with entries and revenue", async () => {
  await withAdminApp(async (app, admin) => {
    const res = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: competitionForm({ maxEntries: "", currency: "", prizeType: "" }),
    });
    assert.equal(res.status, 201);
    const created = await readJsonBody(res);
    assert.equal(created.name, "Saturday Showdown");
    assert.equal(created.entryFee, 10);
    assert.equal(created.prizePool, 100);
    assert.equal(created.maxEntries, null);
    assert.equal(created.currency, "USD");
    assert.equal(created.prizeType, "CASH");
    assert.equal(created.entries, 0);
    assert.equal(created.revenue, 0);

    const paidFor = await makeCompetition(app.kv, { entryFee: 12.5 });
    await makeEntry(app.kv, paidFor);
    await makeEntry(app.kv, paidFor);
    const list = await readJsonBody(
      await app.request("/api/admin/competitions", { headers: admin }),
    );
    const row = list.find((c: { id: number }) => c.id === paidFor.id);
    assert.equal(row.entries, 2);
    assert.equal(row.revenue, 25);
  });
});

Deno.test("[admin competitions] form validation messages", async (t) => {
  await withAdminApp(async (app, admin) => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["name", { name: "" }, "Name is required", "name"],
      ["deadline", { deadline: "" }, "Deadline is required", "deadline"],
      ["entry fee", { entryFee: "-1" }, "Entry fee must be positive", "entryFee"],
      ["prize pool", { prizePool: "0" }, "Prize pool must be positive", "prizePool"],
      ["salary cap", { salaryCap: -5 }, "Salary cap must be positive", "salaryCap"],
      ["max entries", { maxEntries: 1.5 }, "Max entries must be a positive integer", "maxEntries"],
    ];
    for (const [label, patch, message, field] of cases) {
      await t.step(label, async () => {
        const res = await app.request("/api/admin/competitions", {
          method: "POST",
          headers: admin,
          json: competitionForm(patch),
        });
        assert.equal(res.status, 400);
        const body = await readJsonBody(res);
        assert.equal(body.message, message);
        assert.deepEqual(body.issues[0], { path: [field], message });
      });
    }
  });
});

Deno.test("[admin competitions] GET, PUT and 404s", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, {}, { players: false });
    const one = await app.request(`/api/admin/competitions/${c.id}`, { headers: admin });
    assert.equal(one.status, 200);
    assert.equal((await readJsonBody(one)).revenue, 0);

    // LIVE a week before the deadline needs a confirmation with a reason.
    const early = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "PUT",
      headers: admin,
      json: competitionForm({ name: "Renamed", status: "LIVE" }),
    });
    assert.equal(early.status, 409);
    const why = await readJsonBody(early);
    assert.match(why.message, /^The deadline is in 7 days \(.* UTC\): going LIVE now closes/);
    assert.deepEqual(why.issues.map((i: { path: string[] }) => i.path), [["force"]]);
    assert.equal((await getCompetition(app.kv, c.id))!.name, c.name, "nothing saved");

    const put = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "PUT",
      headers: admin,
      json: competitionForm({
        name: "Renamed",
        status: "LIVE",
        force: true,
        reason: "Kick-off moved",
      }),
    });
    assert.equal(put.status, 200);
    const updated = await readJsonBody(put);
    assert.equal(updated.name, "Renamed");
    assert.equal(updated.status, "LIVE");
    assert.equal(updated.autoStatus, false, "the admin insisted: the clock no longer decides");

    const missing = await app.request("/api/admin/competitions/999", {
      method: "PUT",
      headers: admin,
      json: competitionForm(),
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(await readJsonBody(missing), { message: "Competition not found" });

    const badId = await app.request("/api/admin/competitions/0", { headers: admin });
    assert.equal(badId.status, 400);
    assert.deepEqual(await readJsonBody(badId), {
      message: "Invalid id",
      issues: [{ path: ["id"], message: "Invalid id" }],
    });
  });
});

Deno.test("[admin competitions] deleting one with paid entries is a 409", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await makeEntry(app.kv, c);
    const res = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(res.status, 409);
    assert.match((await readJsonBody(res)).message, /paid entr/);
    const still = await app.request(`/api/competitions/${c.id}`);
    assert.equal(still.status, 200);
    await still.body?.cancel();
  });
});

Deno.test("[admin competitions] deleting one without entries removes everything under it", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 100 }]);
    await savePerformances(app.kv, c.id, [{ playerId: c.players[0].id, goals: 1 }]);
    const res = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await readJsonBody(res), { message: "Competition deleted" });
    for (
      const prefix of [keys.competitionPlayers(c.id), keys.prizes(c.id), keys.performances(c.id)]
    ) {
      const left = await Array.fromAsync(app.kv.list({ prefix }));
      assert.equal(left.length, 0, `left under ${prefix.join("/")}`);
    }
    const gone = await app.request(`/api/competitions/${c.id}`);
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
    const again = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(again.status, 404);
    await again.body?.cancel();
  });
});

Deno.test("[competitions] a competition nobody can enter is hidden, and the admin list says why", async (t) => {
  await withAdminApp(async (app, admin) => {
    const empty = await makeCompetition(app.kv, { name: "Empty" }, { players: false });
    const tight = await makeCompetition(app.kv, { name: "Tight", salaryCap: 4000 });
    const open = await makeCompetition(app.kv, { name: "Open" });
    const live = await makeCompetition(app.kv, { name: "Live", status: "LIVE" }, {
      players: false,
    });
    await t.step("visitors see only the playable ones (and the live one)", async () => {
      const list = await readJsonBody(await app.request("/api/competitions"));
      assert.deepEqual(list.map((c: { id: number }) => c.id).sort(), [open.id, live.id].sort());
      const home = await (await app.request("/")).text();
      assert.ok(home.includes("Open") && !home.includes("Tight"));
    });
    await t.step("the admin list gives the reason", async () => {
      const rows = await readJsonBody(
        await app.request("/api/admin/competitions", { headers: admin }),
      );
      const reason = (id: number) => rows.find((r: { id: number }) => r.id === id).hiddenReason;
      assert.equal(reason(empty.id), "No players have been added yet.");
      assert.equal(reason(tight.id), "No 5 players fit the rules under the salary cap of $4,000.");
      assert.equal(reason(open.id), null);
      assert.equal(reason(live.id), null);
    });
  });
});

Deno.test("[admin competitions] a cancelled competition brings no revenue", async () => {
  await withAdminApp(async (app, admin) => {
    const kept = await makeCompetition(app.kv, { entryFee: 4 });
    const cancelled = await makeCompetition(app.kv, { entryFee: 7 });
    await makeEntry(app.kv, kept);
    await makeEntry(app.kv, cancelled);
    await makeEntry(app.kv, cancelled);
    const rows = async () =>
      new Map(
        (await readJsonBody(await app.request("/api/admin/competitions", { headers: admin })))
          .map((c: { id: number; revenue: number }) => [c.id, c.revenue]),
      );
    assert.equal((await rows()).get(cancelled.id), 14, "paid entries count before cancelling");
    const res = await app.request(`/api/admin/competitions/${cancelled.id}/cancel`, {
      method: "POST",
      headers: admin,
      json: { reason: "The match was postponed." },
    });
    assert.equal(res.status, 200);
    const body = await readJsonBody(res);
    assert.equal(body.competition.status, "CANCELLED");
    assert.equal(body.competition.entries, 2, "the entries stay listed");
    assert.equal(body.competition.revenue, 0);
    const after = await rows();
    assert.equal(after.get(cancelled.id), 0);
    assert.equal(after.get(kept.id), 4, "other competitions keep theirs");
  });
});

Deno.test("[competitions] a salary cap its players cannot fit under is refused, naming the cap", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv);
    const form = {
      name: c.name,
      league: c.league,
      entryFee: "10",
      prizePool: "100",
      currency: "USD",
      prizeType: "CASH",
      deadline: c.deadline,
      status: "UPCOMING",
      maxPlayersPerTeam: 3,
      maxForwards: 2,
      minDefenders: 1,
    };
    const put = (salaryCap: number) =>
      app.request(`/api/admin/competitions/${c.id}`, {
        method: "PUT",
        headers: admin,
        json: { ...form, salaryCap },
      });
    const cheapest = [...c.players].sort((a, b) => a.salary - b.salary).slice(0, 5)
      .reduce((sum, p) => sum + p.salary, 0);
    const low = await put(cheapest - 1);
    assert.equal(low.status, 400);
    const body = await readJsonBody(low);
    assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [["salaryCap"]]);
    assert.match(body.message, /under the salary cap/);
    assert.equal((await getCompetition(app.kv, c.id))?.salaryCap, c.salaryCap, "nothing changed");
    const ok = await put(100_000);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[admin competitions] a new competition's cap is checked against its match's players", async (t) => {
  await withAdminApp(async (app, admin) => {
    const home = await makeTeam(app.kv);
    const away = await makeTeam(app.kv);
    const squad = ["GK", "DEF", "DEF", "MID", "FWD"] as const;
    for (const teamId of [home.id, away.id]) {
      for (const position of squad) await makePlayer(app.kv, { teamId, position, salary: 4000 });
    }
    const match = await createMatch(app.kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: new Date(Date.now() + 8 * DAY).toISOString(),
      stadium: "Home Park",
    });
    const create = (salaryCap: number, matchId: number | null = match.id) =>
      app.request("/api/admin/competitions", {
        method: "POST",
        headers: admin,
        json: competitionForm({ matchId, salaryCap }),
      });
    const count = async () =>
      (await readJsonBody(
        await app.request("/api/admin/competitions", { headers: admin }),
      )).length;
    const before = await count();

    await t.step(
      "the default cap of 5,000 under five players of 4,000: 400 on salaryCap",
      async () => {
        const res = await create(5000);
        assert.equal(res.status, 400);
        const body = await readJsonBody(res);
        const issue = body.issues.find((i: { path: string[] }) => i.path[0] === "salaryCap");
        assert.match(
          issue.message,
          /No 5 players fit the rules under the salary cap of \$5,000\. Raise the cap/,
        );
        assert.equal(await count(), before, "nothing was created");
      },
    );

    await t.step(
      "a cap the match's players fit is saved; so is any cap without a match",
      async () => {
        const fits = await create(20000);
        assert.equal(fits.status, 201, await fits.text());
        const alone = await create(5000, null);
        assert.equal(alone.status, 201, await alone.text());
        assert.equal(await count(), before + 2);
      },
    );
  });
});
