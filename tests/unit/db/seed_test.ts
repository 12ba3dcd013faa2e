import assert from "node:assert/strict";
import { listCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { listCompetitions } from "@/lib/db/competitions.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { listMatches } from "@/lib/db/matches.ts";
import { getRoundWithMatches } from "@/lib/db/rounds.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import { listPlayers } from "@/lib/db/players.ts";
import { listPrizes } from "@/lib/db/prizes.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { listTeams } from "@/lib/db/teams.ts";
import { teamSalary } from "@/lib/domain/team_rules.ts";
import { POSITIONS } from "@/lib/domain/types.ts";
import { makeTeam } from "./_fixtures.ts";

const DAY = 24 * 60 * 60 * 1000;

Deno.test("[seed] fills an empty store with demo data in every state", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const now = new Date();
  // How long seeding takes is a figure of `deno task bench domain`.
  assert.equal(await seedDemoDataIfEmpty(kv, now), true);

  await t.step("two leagues of at least four clubs, crests as local paths", async () => {
    const teams = await listTeams(kv);
    for (const league of ["PREMIER_LEAGUE", "LA_LIGA"]) {
      assert.ok(teams.filter((team) => team.league === league).length >= 4, league);
    }
    for (const team of teams) {
      assert.equal(team.logoUrl, `/crests/${team.shortName.toLowerCase()}.svg`);
      const file = new URL(`../../../static${team.logoUrl}`, import.meta.url);
      assert.match(await Deno.readTextFile(file), new RegExp(`>${team.shortName}</text>`));
    }
  });

  await t.step("at least 60 players in every position; stars break a 50,000 cap", async () => {
    const players = await listPlayers(kv);
    assert.ok(players.length >= 60);
    for (const position of POSITIONS) assert.ok(players.some((p) => p.position === position));
    assert.ok(players.every((p) => p.salary >= 4000 && p.salary <= 12000));
    const stars = [...players].sort((a, b) => b.salary - a.salary).slice(0, 5);
    assert.ok(teamSalary(stars) > 50000);
    assert.equal(new Set(players.map((p) => p.name)).size, players.length);
  });

  const competitions = await listCompetitions(kv);

  await t.step("UPCOMING competitions, one closing within a day, one GBP NON_CASH", () => {
    const upcoming = competitions.filter((c) => c.status === "UPCOMING");
    assert.ok(upcoming.length >= 3);
    const left = upcoming.map((c) => Date.parse(c.deadline) - now.getTime());
    assert.ok(left.every((ms) => ms > 0));
    assert.ok(left.some((ms) => ms < DAY));
    assert.ok(left.some((ms) => ms > 4 * DAY));
    assert.ok(upcoming.some((c) => c.currency === "GBP" && c.prizeType === "NON_CASH"));
    assert.ok(upcoming.some((c) => c.salaryCap < 50000));
  });

  await t.step("a LIVE competition with entries, performances and events", async () => {
    const live = competitions.find((c) => c.status === "LIVE")!;
    const entries = await listEntriesByCompetition(kv, live.id);
    assert.ok(entries.length >= 10);
    assert.equal(live.currentEntries, entries.length);
    assert.ok((await listGameEvents(kv, live.id)).length >= 8);
    assert.ok((await getPerformancesMap(kv, live.id)).size > 0);
    assert.ok(Date.parse(live.deadline) < now.getTime());
  });

  await t.step("a COMPLETED competition with prizes awarded", async () => {
    const completed = competitions.find((c) => c.status === "COMPLETED")!;
    const prizes = await listPrizes(kv, completed.id);
    const entries = await listEntriesByCompetition(kv, completed.id);
    assert.ok(entries.length > 0);
    assert.ok(entries.every((e) => e.rank !== null && e.prize !== null));
    const awarded = entries.reduce((sum, e) => sum + (e.prize ?? 0), 0);
    assert.equal(awarded, prizes.reduce((sum, p) => sum + p.prize, 0));
    assert.ok(entries.some((e) => e.rank === 1 && e.points > 0));
  });

  await t.step("every competition has players and a prize structure", async () => {
    for (const c of competitions) {
      assert.ok((await listCompetitionPlayers(kv, c.id)).length >= 10, c.name);
      assert.ok((await listPrizes(kv, c.id)).length >= 1, c.name);
    }
    assert.ok((await listMatches(kv)).some((m) => m.result !== "NOT_PLAYED"));
  });

  await t.step("a competition on a match offers the players of its two clubs only", async () => {
    const matches = new Map((await listMatches(kv)).map((m) => [m.id, m]));
    const onMatch = competitions.filter((c) => c.matchId !== null);
    assert.ok(onMatch.length >= 3);
    for (const c of onMatch) {
      const m = matches.get(c.matchId!)!;
      const clubs = new Set((await listCompetitionPlayers(kv, c.id)).map((p) => p.teamId));
      assert.deepEqual([...clubs].sort(), [m.homeTeamId, m.awayTeamId].sort(), c.name);
    }
  });

  await t.step("a second call leaves the store alone", async () => {
    assert.equal(await seedDemoDataIfEmpty(kv), false);
    assert.equal((await listCompetitions(kv)).length, competitions.length);
  });
  kv.close();
});

Deno.test("[seed] is deterministic", async () => {
  const summaries = [];
  for (let i = 0; i < 2; i++) {
    const kv = await Deno.openKv(":memory:");
    await seedDemoDataIfEmpty(kv);
    const players = await listPlayers(kv);
    summaries.push(players.map((p) => `${p.name}:${p.position}:${p.salary}`).join("|"));
    kv.close();
  }
  assert.equal(summaries[0], summaries[1]);
});

Deno.test("[seed] does nothing when teams already exist", async () => {
  const kv = await Deno.openKv(":memory:");
  await makeTeam(kv, "Existing FC");
  assert.equal(await seedDemoDataIfEmpty(kv), false);
  assert.equal((await listTeams(kv)).length, 1);
  kv.close();
});

Deno.test("[seed] two parallel calls seed once", async () => {
  const kv = await Deno.openKv(":memory:");
  const results = await Promise.all([seedDemoDataIfEmpty(kv), seedDemoDataIfEmpty(kv)]);
  assert.deepEqual(results.sort(), [false, true]);
  assert.equal((await listTeams(kv)).length, 10);
  kv.close();
});

Deno.test("[seed] the demo holds a round of five staggered matches and a late-swap contest on it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await seedDemoDataIfEmpty(kv);
    const contest = (await listCompetitions(kv)).find((c) => typeof c.roundId === "number");
    assert.ok(contest, "a round contest");
    assert.equal(contest.lateSwap, true);
    const round = await getRoundWithMatches(kv, contest.roundId!);
    assert.ok(round && round.matches.length >= 5);
    const kickoffs = new Set(round.matches.map((m) => m.kickoffTime));
    assert.ok(kickoffs.size >= 4, "staggered kick-offs");
    assert.equal(contest.deadline, round.matches[0].kickoffTime, "closes at the first kick-off");
    const clubs = new Set(round.matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
    const players = await listCompetitionPlayers(kv, contest.id);
    assert.ok(players.length > 0 && players.every((p) => clubs.has(p.teamId)));
  } finally {
    kv.close();
  }
});
