/**
 * Contest formats: POST /api/admin/contests-from-templates makes a match's contests in one go;
 * each template pays its table in exact cents (ties split as everywhere else), a growing pool is
 * frozen with its prize table at the deadline, an unfilled head-to-head or 50/50 is cancelled
 * and refunded through the refund path, and a private contest is reached by its link only.
 */
import assert from "node:assert/strict";
import { getCompetition, listCompetitions, updateCompetition } from "@/lib/db/competitions.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { listCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { makeRound } from "@/tests/helpers/rounds.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { listPrizes } from "@/lib/db/prizes.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { computeStandings } from "@/lib/db/standings.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

const PATH = "/api/admin/contests-from-templates";
const DAY_MS = 86_400_000;

/** Two clubs with a squad each, and a match between them kicking off tomorrow. */
async function makeFixture(app: TestApp) {
  const squad = await makeCompetition(app.kv, { name: "Squad source" });
  const match = await createMatch(app.kv, {
    homeTeamId: squad.teams[0].id,
    awayTeamId: squad.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() + DAY_MS).toISOString(),
    stadium: "The Ground",
  });
  return { squad, match };
}

/** Makes the contests through the API; the competitions as created, with the squad to pick from. */
async function makeContests(
  app: TestApp,
  squad: TestCompetition,
  body: Record<string, unknown>,
): Promise<TestCompetition[]> {
  const res = await app.request(PATH, {
    method: "POST",
    headers: await makeAdminHeaders(app.kv),
    json: body,
  });
  assert.equal(res.status, 201, await res.clone().text());
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const rows = await readJsonBody(res) as Competition[];
  return rows.map((c) => ({ ...c, players: squad.players, teams: squad.teams }));
}

/** Ends the entry window: the deadline moves an hour back (the sweep then acts on it). */
async function passDeadline(app: TestApp, c: Competition): Promise<void> {
  await updateCompetition(app.kv, c.id, {
    deadline: new Date(Date.now() - 3_600_000).toISOString(),
  });
}

/** The picks of two teams: one holding `star`, one without; and the star. */
function starTeams(c: TestCompetition) {
  const teams = validTeams(c);
  const star = teams[0][0];
  return {
    star,
    withStar: teams.find((t) => t.includes(star))!,
    without: teams.filter((t) => !t.includes(star)),
  };
}

/** Completes `c` and returns each entry's prize in cents by team name. */
async function completeAndPrizes(app: TestApp, c: Competition): Promise<Map<string, number>> {
  await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
  const entries = await listEntriesByCompetition(app.kv, c.id);
  return new Map(entries.map((e) => [e.teamName, Math.round((e.prize ?? 0) * 100)]));
}

let fan = 0;
/** A paid entry through the public API (payment intent, test card, POST /api/entries). */
async function paidEntry(app: TestApp, c: TestCompetition, playerIds: number[]) {
  const paymentId = await payTestIntent(app, c.id);
  const n = ++fan;
  const res = await app.request("/api/entries", {
    method: "POST",
    json: {
      competitionId: c.id,
      email: `formats${n}@example.com`,
      teamName: `Formats ${n}`,
      playerIds,
      stripePaymentId: paymentId,
    },
  });
  assert.equal(res.status, 201, await res.clone().text());
  await res.body?.cancel();
  return paymentId;
}

Deno.test("[formats] POST /api/admin/contests-from-templates makes every template's competition for the match", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const made = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5,
      templates: [
        { format: "HEAD_TO_HEAD" },
        { format: "FIFTY_FIFTY", maxEntries: 6 },
        { format: "TOURNAMENT", pool: "GUARANTEED", prizePool: 250, maxEntries: 50 },
        { format: "PRIVATE" },
      ],
    });
    assert.equal(made.length, 4);
    const [h2h, fifty, tournament, priv] = made;
    for (const c of made) {
      assert.equal(c.matchId, match.id);
      assert.equal(c.deadline, match.kickoffTime, "the deadline defaults to the kick-off");
      assert.equal(c.autoStatus, true);
      const players = await app.request(`/api/competitions/${c.id}/players`);
      assert.equal(
        (await readJsonBody(players)).length,
        squad.players.length,
        "the match's squads",
      );
    }
    assert.equal(h2h.name, `${squad.teams[0].name} v ${squad.teams[1].name} · Head-to-Head`);
    assert.deepEqual([h2h.maxEntries, h2h.minEntries], [2, 2]);
    assert.deepEqual([fifty.maxEntries, fifty.minEntries], [6, 6]);
    assert.equal(tournament.format?.pool, "GUARANTEED");
    const table = await listPrizes(app.kv, tournament.id);
    assert.equal(table.length, 10, "a guaranteed pool starts with the table of its full field");
    assert.equal(table.reduce((s, p) => s + Math.round(p.prize * 100), 0), 25_000);
    assert.equal(priv.unlisted, true);
    assert.equal(h2h.unlisted, false);
  } finally {
    await app.close();
  }
});

Deno.test("[formats] bad template input is a 400 naming the field and creates nothing", async () => {
  const app = await makeTestApp();
  try {
    const { match } = await makeFixture(app);
    const admin = await makeAdminHeaders(app.kv);
    const before = (await listCompetitions(app.kv)).length;
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ matchId: match.id, entryFee: 5, templates: [] }, ["templates"]],
      [{ matchId: match.id, entryFee: 5 }, ["templates"]],
      [{ matchId: match.id, entryFee: 5, templates: [{ format: "KNOCKOUT" }] }, [
        "templates",
        0,
        "format",
      ]],
      [{
        matchId: match.id,
        entryFee: 5,
        templates: [{ format: "TOURNAMENT" }, { format: "TOURNAMENT", pool: "GUARANTEED" }],
      }, ["templates", 1, "prizePool"]],
      [{
        matchId: match.id,
        entryFee: 5,
        templates: [{ format: "TOURNAMENT" }, { format: "HEAD_TO_HEAD", maxEntries: 4 }],
      }, ["templates", 1, "maxEntries"]],
      [{
        matchId: match.id,
        entryFee: 5,
        templates: [{ format: "TOURNAMENT", operatorSharePercent: 80 }],
      }, [
        "templates",
        0,
        "operatorSharePercent",
      ]],
      [{ matchId: match.id, entryFee: -1, templates: [{ format: "TOURNAMENT" }] }, ["entryFee"]],
      [{ entryFee: 5, templates: [{ format: "TOURNAMENT" }] }, ["matchId"]],
      [{ matchId: 999_999, entryFee: 5, templates: [{ format: "TOURNAMENT" }] }, ["matchId"]],
      [{ roundId: 3, entryFee: 5, templates: [{ format: "TOURNAMENT" }] }, ["roundId"]],
      [{
        matchId: match.id,
        entryFee: 5,
        deadline: new Date(Date.now() - DAY_MS).toISOString(),
        templates: [{ format: "TOURNAMENT" }],
      }, ["deadline"]],
    ];
    for (const [body, path] of cases) {
      const res = await app.request(PATH, { method: "POST", headers: admin, json: body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.headers.get("content-type") ?? "", /application\/json/);
      const answer = await readJsonBody(res);
      assert.deepEqual(answer.issues?.[0]?.path, path, JSON.stringify(answer));
      assert.ok(answer.message.length > 0);
    }
    assert.equal((await listCompetitions(app.kv)).length, before, "nothing was created");
    const anonymous = await app.request(PATH, {
      method: "POST",
      json: { matchId: match.id, entryFee: 5, templates: [{ format: "TOURNAMENT" }] },
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[formats] head-to-head: the winner takes the pool, a tie splits it to the cent", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    // 5.01 × 2 × 90% = 9.018 → 9.01 (the operator keeps the fraction of a cent).
    const [won, tied] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5.01,
      templates: [{ format: "HEAD_TO_HEAD" }, { format: "HEAD_TO_HEAD" }],
    });
    const { star, withStar, without } = starTeams(won);
    await makeEntry(app.kv, won, { teamName: "Winner", playerIds: withStar });
    await makeEntry(app.kv, won, { teamName: "Loser", playerIds: without[0] });
    await makeEntry(app.kv, tied, { teamName: "Tie A", playerIds: without[0] });
    await makeEntry(app.kv, tied, { teamName: "Tie B", playerIds: without[1] });
    for (const c of [won, tied]) {
      await savePerformances(app.kv, c.id, [{ playerId: star, goals: 1 }]);
    }
    for (const c of [won, tied]) await passDeadline(app, c);
    await sweepPayments(app.services, TEST_ORIGIN);

    assert.equal((await getCompetition(app.kv, won.id))?.prizePool, 9.01);
    const prizes = await completeAndPrizes(app, won);
    assert.deepEqual(Object.fromEntries(prizes), { Winner: 901, Loser: 0 });
    const split = await completeAndPrizes(app, tied);
    assert.deepEqual([...split.values()].sort(), [450, 451], "9.01 split: 4.51 + 4.50");
  } finally {
    await app.close();
  }
});

Deno.test("[formats] 50/50: the top half share the pool equally; a tie at the cut shares its places", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [fifty] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5,
      templates: [{ format: "FIFTY_FIFTY", maxEntries: 4, pool: "GUARANTEED", prizePool: 20 }],
    });
    const { star, withStar, without } = starTeams(fifty);
    await makeEntry(app.kv, fifty, { teamName: "Top", playerIds: withStar });
    for (const name of ["B", "C", "D"]) {
      await makeEntry(app.kv, fifty, { teamName: name, playerIds: without[0] });
    }
    await savePerformances(app.kv, fifty.id, [{ playerId: star, goals: 1 }]);
    await passDeadline(app, fifty);
    await sweepPayments(app.services, TEST_ORIGIN);
    const table = (await listPrizes(app.kv, fifty.id)).map((p) => [p.position, p.prize]);
    assert.deepEqual(table, [[1, 10], [2, 10]]);
    const prizes = await completeAndPrizes(app, fifty);
    assert.equal(prizes.get("Top"), 1000);
    // B, C and D tie for 2nd: they cover places 2–4 and share place 2's 10.00.
    assert.deepEqual(["B", "C", "D"].map((n) => prizes.get(n)!).sort(), [333, 333, 334]);
    assert.equal([...prizes.values()].reduce((a, b) => a + b, 0), 2000);
  } finally {
    await app.close();
  }
});

Deno.test("[formats] a growing pool shows live in the lobby, is frozen at the deadline with its table, and a later refund changes neither", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [tournament] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5,
      templates: [{ format: "TOURNAMENT", name: "Growing Cup" }],
    });
    const { star, withStar, without } = starTeams(tournament);
    await makeEntry(app.kv, tournament, { teamName: "Leader", playerIds: withStar });
    const rest: string[] = [];
    for (let i = 0; i < 9; i++) {
      rest.push(
        (await makeEntry(app.kv, tournament, { playerIds: without[i % without.length] })).teamId,
      );
    }

    const list = await readJsonBody(await app.request("/api/competitions")) as Competition[];
    const listed = list.find((c) => c.id === tournament.id)!;
    assert.equal(listed.currentEntries, 10);
    assert.equal(listed.format?.frozenAt, null);
    assert.equal(listed.prizePool, 45, "the API answers the pool as it stands");
    const one = await readJsonBody(await app.request(`/api/competitions/${tournament.id}`));
    assert.equal(one.prizePool, 45);
    const pages = [
      [`/team-selection/${tournament.id}`, /data-prize[^>]*>\$45\.00</],
      [`/leaderboard/${tournament.id}`, /data-testid="prize"[^>]*>\$45\.00</],
    ] as const;
    for (const [path, shown] of pages) {
      const page = await app.request(path);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, shown, path);
      assert.match(html, /Prize pool \$45\.00/, "the share preview too");
    }
    const lobby = await (await app.request("/")).text();
    const card = lobby.slice(lobby.indexOf(`data-contest-card="${tournament.id}"`));
    assert.match(card.slice(0, 3000), /\$45\.00/, "10 × 5.00 × 90%");
    assert.match(card.slice(0, 3000), /Grows with every entry/);
    assert.deepEqual(await listPrizes(app.kv, tournament.id), [], "no table before the deadline");

    await passDeadline(app, tournament);
    await sweepPayments(app.services, TEST_ORIGIN);
    const frozen = (await getCompetition(app.kv, tournament.id))!;
    assert.equal(frozen.prizePool, 45);
    assert.ok(frozen.format?.frozenAt, "frozen");
    const table = () =>
      listPrizes(app.kv, tournament.id).then((rows) => rows.map((p) => [p.position, p.prize]));
    assert.deepEqual(await table(), [[1, 27], [2, 18]], "a field of 10 pays 2: 60/40");

    const admin = await makeAdminHeaders(app.kv);
    const refund = await app.request(
      `/api/admin/competitions/${tournament.id}/entries/${encodeURIComponent(rest[0])}/refund`,
      { method: "POST", headers: admin, json: { reason: "Entered twice by mistake" } },
    );
    assert.equal(refund.status, 200, await refund.clone().text());
    await refund.body?.cancel();
    await sweepPayments(app.services, TEST_ORIGIN);
    const after = (await getCompetition(app.kv, tournament.id))!;
    assert.equal(after.currentEntries, 9);
    assert.equal(after.prizePool, 45, "the pool stays as frozen");
    assert.equal(after.format?.frozenAt, frozen.format?.frozenAt);
    assert.deepEqual(await table(), [[1, 27], [2, 18]], "the table stays as frozen");

    await savePerformances(app.kv, tournament.id, [{ playerId: star, goals: 1 }]);
    const prizes = await completeAndPrizes(app, tournament);
    assert.equal(prizes.get("Leader"), 2700);
    const standings = await computeStandings(app.kv, tournament.id);
    assert.equal(standings.length, 9, "the refunded entry left the leaderboard");
    // The 8 left tie for 2nd and share 2nd place's 18.00: 2.25 each.
    assert.deepEqual(standings.slice(1).map((r) => r.prize), Array(8).fill(2.25));
  } finally {
    await app.close();
  }
});

Deno.test("[formats] a field of 1,000 freezes its 200 paid places in one go", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [tournament] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 1,
      templates: [{ format: "TOURNAMENT", operatorSharePercent: 0 }],
    });
    const teams = validTeams(tournament);
    // In batches: the entry writes commit concurrent entries together.
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from(
          { length: 50 },
          (_, j) => makeEntry(app.kv, tournament, { playerIds: teams[(i + j) % teams.length] }),
        ),
      );
    }
    assert.equal((await getCompetition(app.kv, tournament.id))?.currentEntries, 1000);
    await passDeadline(app, tournament);
    await sweepPayments(app.services, TEST_ORIGIN);
    const table = await listPrizes(app.kv, tournament.id);
    assert.equal(table.length, 200);
    assert.equal(table.reduce((s, p) => s + Math.round(p.prize * 100), 0), 100_000);
    assert.equal((await getCompetition(app.kv, tournament.id))?.prizePool, 1000);
  } finally {
    await app.close();
  }
});

Deno.test("[formats] a contest completed before the freeze job ran pays from a table frozen then", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [tournament] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 10,
      templates: [{ format: "TOURNAMENT", operatorSharePercent: 0 }],
    });
    const { star, withStar, without } = starTeams(tournament);
    await makeEntry(app.kv, tournament, { teamName: "Solo", playerIds: withStar });
    await makeEntry(app.kv, tournament, { teamName: "Other", playerIds: without[0] });
    await savePerformances(app.kv, tournament.id, [{ playerId: star, goals: 1 }]);
    const prizes = await completeAndPrizes(app, tournament);
    assert.deepEqual(Object.fromEntries(prizes), { Solo: 2000, Other: 0 });
    assert.equal((await getCompetition(app.kv, tournament.id))?.prizePool, 20);
  } finally {
    await app.close();
  }
});

Deno.test("[formats] an unfilled head-to-head and an unfilled 50/50 are cancelled and refunded at the deadline", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [h2h, fifty, full] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5,
      templates: [
        { format: "HEAD_TO_HEAD" },
        { format: "FIFTY_FIFTY", maxEntries: 4 },
        { format: "HEAD_TO_HEAD" },
      ],
    });
    const picks = validTeams(h2h);
    const paid = [
      await paidEntry(app, h2h, picks[0]),
      await paidEntry(app, fifty, picks[0]),
      await paidEntry(app, fifty, picks[1]),
      await paidEntry(app, fifty, picks[2]),
    ];
    await paidEntry(app, full, picks[0]);
    await paidEntry(app, full, picks[1]);
    for (const c of [h2h, fifty, full]) await passDeadline(app, c);

    await sweepPayments(app.services, TEST_ORIGIN);

    const provider = app.services.payments as TestPaymentProvider;
    for (const c of [h2h, fifty]) {
      const after = (await getCompetition(app.kv, c.id))!;
      assert.equal(after.status, "CANCELLED", c.name);
      assert.match(after.cancelReason ?? "", /Not enough entries/);
      assert.equal(after.format?.frozenAt, null, "a cancelled contest is never frozen");
    }
    for (const id of paid) {
      assert.equal((await getRefund(app.kv, id))?.status, "DONE");
      assert.equal(await provider.isRefunded(id), true);
    }
    const filled = (await getCompetition(app.kv, full.id))!;
    assert.equal(filled.status, "UPCOMING", "the full head-to-head runs");
    assert.equal(filled.prizePool, 9, "2 × 5.00 × 90%, frozen");
  } finally {
    await app.close();
  }
});

Deno.test("[formats] a private contest is absent from the lobby and enterable by its link", async () => {
  const app = await makeTestApp();
  try {
    const { squad, match } = await makeFixture(app);
    const [priv, open] = await makeContests(app, squad, {
      matchId: match.id,
      entryFee: 5,
      templates: [
        { format: "PRIVATE", name: "Office League" },
        { format: "TOURNAMENT", name: "Open Cup" },
      ],
    });
    const list = await readJsonBody(await app.request("/api/competitions")) as Competition[];
    assert.ok(list.some((c) => c.id === open.id), "the open contest is listed");
    assert.ok(!list.some((c) => c.id === priv.id), "the private one is not");
    const lobby = await (await app.request("/")).text();
    assert.ok(lobby.includes("Open Cup"));
    assert.ok(!lobby.includes("Office League"));
    assert.ok(!lobby.includes(`data-contest-card="${priv.id}"`));

    const one = await app.request(`/api/competitions/${priv.id}`);
    assert.equal(one.status, 200);
    assert.equal((await readJsonBody(one)).name, "Office League");
    const page = await app.request(`/team-selection/${priv.id}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Office League/);
    await paidEntry(app, priv, validTeams(priv)[0]);
    assert.equal((await getCompetition(app.kv, priv.id))?.currentEntries, 1);
  } finally {
    await app.close();
  }
});

Deno.test("[formats] 'Create contests for this round': every template on the round, its clubs' players, its first kick-off", async () => {
  const app = await makeTestApp();
  try {
    const first = new Date(Date.now() + DAY_MS);
    const { round, players } = await makeRound(app.kv, [
      new Date(first.getTime() + 3 * 3_600_000),
      first,
    ]);
    const res = await app.request(PATH, {
      method: "POST",
      headers: await makeAdminHeaders(app.kv),
      json: {
        roundId: round.id,
        entryFee: 5,
        templates: [{ format: "HEAD_TO_HEAD" }, { format: "TOURNAMENT" }],
      },
    });
    assert.equal(res.status, 201, await res.clone().text());
    const made = await readJsonBody(res) as Competition[];
    assert.equal(made.length, 2);
    for (const c of made) {
      const saved = (await getCompetition(app.kv, c.id))!;
      assert.equal(saved.roundId, round.id);
      assert.equal(saved.matchId, null);
      assert.equal(saved.deadline, first.toISOString(), "the round's first kick-off");
      assert.match(saved.name, new RegExp(`^${round.name} · `));
      const offered = await listCompetitionPlayers(app.kv, c.id);
      assert.deepEqual(
        offered.map((p) => p.id).sort((a, b) => a - b),
        players.map((p) => p.id).sort((a, b) => a - b),
        "every club of the round",
      );
    }
    const missing = await app.request(PATH, {
      method: "POST",
      headers: await makeAdminHeaders(app.kv),
      json: { roundId: 999999, entryFee: 5, templates: [{ format: "TOURNAMENT" }] },
    });
    assert.equal(missing.status, 400);
    assert.deepEqual((await readJsonBody(missing)).issues[0].path, ["roundId"]);
  } finally {
    await app.close();
  }
});
