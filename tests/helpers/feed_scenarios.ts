/**
 * What the live feed's match messages must lead to, as scenarios run through HTTP against any
 * app: the in-process handler (tests/helpers/app.ts) or a real server process (main.ts,
 * `npm start`) whose KV file the test opens beside it to lay out fixtures and read the results.
 */
import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { createMatch, getMatch } from "@/lib/db/matches.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { keys } from "@/lib/store/keys.ts";
import { readJsonBody, type TestApp, type TestRequestInit } from "./app.ts";
import { feedSender } from "./feed.ts";
import { entryBody, makeCompetition, payTestIntent, startMatch } from "./fixtures.ts";

/** An app the scenarios talk to: its store, and requests to it by path. */
export type FeedTarget = Pick<TestApp, "kv" | "request">;

/** A server process at `url` whose store the test opened as `kv`. */
export function serverTarget(url: string, kv: Deno.Kv): FeedTarget {
  return {
    kv,
    request(path: string, init: TestRequestInit = {}) {
      const { json, from: _from, ...rest } = init;
      const headers = new Headers(rest.headers);
      let body = rest.body;
      if (json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(json);
      }
      return fetch(new URL(path, url), { ...rest, headers, body });
    },
  };
}

const HOUR = 3_600_000;

async function competition(kv: Deno.Kv, id: number): Promise<Competition> {
  return (await kv.get<Competition>(keys.competition(id))).value!;
}

/**
 * Corrections after full time: three goals, full time, then version 2 of the 60th-minute goal
 * credits another player. The correction replaces the goal (still three; the points move); one
 * the feed cannot take (a player of neither club, or a contest no longer LIVE) is refused and
 * leaves version 2 where it was.
 */
export async function correctionAfterFullTime(target: FeedTarget, provider = "acme") {
  const { kv } = target;
  const c = await makeCompetition(kv);
  const match = await startMatch(kv, c);
  const { send } = await feedSender(target, match.id, provider);
  const [home, away] = c.teams;
  const player = (team: number, position: string) =>
    c.players.find((p) => p.teamId === team && p.position === position)!;
  const homeFwd = player(home.id, "FWD");
  const homeMid = player(home.id, "MID");
  const homeDef = player(home.id, "DEF");
  const awayFwd = player(away.id, "FWD");
  const points = async (id: number) =>
    (await getPerformancesMap(kv, c.id)).get(id)?.totalPoints ?? 0;
  const goals = async () =>
    (await listGameEvents(kv, c.id)).filter((e) => e.eventType === "GOAL")
      .map((e) => [e.minute, e.playerId]).sort((a, b) => a[0]! - b[0]!);

  assert.equal((await send({ id: "k", type: "KICK_OFF" })).status, 200);
  for (
    const [id, p, minute] of [["g1", homeFwd, 10], ["g2", homeMid, 60], [
      "g3",
      awayFwd,
      75,
    ]] as const
  ) {
    const res = await send({ id, type: "GOAL", playerId: p.id, minute });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const ft = await send({ id: "ft", type: "FULL_TIME", homeScore: 2, awayScore: 1 });
  assert.equal(ft.status, 200, JSON.stringify(ft.body));
  assert.equal((await getMatch(kv, match.id))!.status, "COMPLETED");
  const midBefore = await points(homeMid.id);
  const defBefore = await points(homeDef.id);

  // Version 2 after the whistle: the scorer was the defender.
  const fixed = await send({
    id: "g2",
    version: 2,
    type: "GOAL",
    playerId: homeDef.id,
    minute: 60,
  });
  assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
  assert.equal(fixed.body.status, "APPLIED");
  assert.deepEqual(await goals(), [[10, homeFwd.id], [60, homeDef.id], [75, awayFwd.id]]);
  assert.equal(await points(homeMid.id), midBefore - 5, "the midfielder's goal is reversed");
  assert.equal(await points(homeDef.id), defBefore + 6, "the defender's goal counts");
  const saved = (await getMatch(kv, match.id))!;
  assert.deepEqual([saved.homeScore, saved.awayScore, saved.status], [2, 1, "COMPLETED"]);

  // Refused: a player of neither club. Nothing changes.
  const wrong = await send({ id: "g2", version: 3, type: "GOAL", playerId: 999_999, minute: 60 });
  assert.equal(wrong.status, 422);
  assert.equal(wrong.body.status, "REFUSED");
  assert.deepEqual(await goals(), [[10, homeFwd.id], [60, homeDef.id], [75, awayFwd.id]]);
  assert.equal(await points(homeDef.id), defBefore + 6);

  // Refused: the contest is over (its prizes are awarded). Its goal stays as it was.
  await updateCompetition(kv, c.id, { status: "COMPLETED" });
  const late = await send({ id: "g2", version: 4, type: "GOAL", playerId: homeMid.id, minute: 60 });
  assert.equal(late.status, 422, JSON.stringify(late.body));
  assert.match(late.body.message, /LIVE/);
  assert.deepEqual(await goals(), [[10, homeFwd.id], [60, homeDef.id], [75, awayFwd.id]]);
  assert.equal(await points(homeDef.id), defBefore + 6);
}

/**
 * The feed's kick-off, two hours before the scheduled one, drives the contests on the match: at
 * once (no job run waited for) the automatic contest and the manual one are LIVE, one below its
 * minimum entries is closed and left to the minimum-entries job, a payment made before the
 * kick-off makes no entry after it (409, refunded), the next goal counts and full time saves the
 * result.
 */
export async function earlyKickOffDrivesContests(target: FeedTarget, provider = "acme") {
  const { kv } = target;
  const scheduled = new Date(Date.now() + 2 * HOUR).toISOString();
  const c = await makeCompetition(kv, { autoStatus: true, deadline: scheduled });
  const match = await createMatch(kv, {
    homeTeamId: c.teams[0].id,
    awayTeamId: c.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: scheduled,
    stadium: "The Ground",
  });
  await updateCompetition(kv, c.id, { matchId: match.id, deadline: scheduled });
  const manual = await makeCompetition(kv, { autoStatus: false, deadline: scheduled });
  await updateCompetition(kv, manual.id, { matchId: match.id, deadline: scheduled });
  const underfilled = await makeCompetition(kv, { minEntries: 5, deadline: scheduled });
  await updateCompetition(kv, underfilled.id, { matchId: match.id, deadline: scheduled });
  const { send } = await feedSender(target, match.id, provider);
  const payments = new Map<Competition["id"], string>();
  for (const contest of [c, manual, underfilled]) {
    payments.set(contest.id, await payTestIntent(target, contest.id));
  }

  const kickOff = await send({ id: "k", type: "KICK_OFF", minute: 0 });
  assert.equal(kickOff.status, 200, JSON.stringify(kickOff.body));
  assert.equal(kickOff.body.status, "APPLIED");
  for (const contest of [c, manual]) {
    const started = await competition(kv, contest.id);
    assert.equal(started.status, "LIVE", `contest ${contest.id} starts at the feed's kick-off`);
    assert.ok(Date.parse(started.deadline) <= Date.now());
  }
  const closed = await competition(kv, underfilled.id);
  // A server's minimum-entries job may have cancelled it already.
  assert.ok(
    closed.status === "UPCOMING" || closed.status === "CANCELLED",
    `below its minimum it never starts: ${closed.status}`,
  );
  assert.ok(Date.parse(closed.deadline) <= Date.now(), "its entries close at the kick-off");
  const kicked = (await getMatch(kv, match.id))!;
  assert.equal(kicked.status, "LIVE");
  assert.ok(Date.parse(kicked.kickoffTime) < Date.parse(scheduled));

  for (const contest of [c, manual, underfilled]) {
    const late = await target.request("/api/entries", {
      method: "POST",
      json: entryBody(contest, payments.get(contest.id)!),
    });
    assert.equal(late.status, 409, `an entry after the kick-off is refused (${contest.id})`);
    assert.match((await readJsonBody(late)).message, /refunded/i);
    const intent = await target.request("/api/create-payment-intent", {
      method: "POST",
      json: { competitionId: contest.id },
    });
    assert.equal(intent.status, 409);
    await intent.body?.cancel();
    assert.equal((await competition(kv, contest.id)).currentEntries, 0);
  }

  const fwd = c.players.find((p) => p.teamId === c.teams[0].id && p.position === "FWD")!;
  const goal = await send({ id: "g1", type: "GOAL", playerId: fwd.id, minute: 3 });
  assert.equal(goal.status, 200, JSON.stringify(goal.body));
  assert.equal(goal.body.status, "APPLIED");
  assert.deepEqual(Object.keys(goal.body.events), [String(c.id)]);

  const ft = await send({ id: "ft", type: "FULL_TIME", minute: 90, homeScore: 1, awayScore: 0 });
  assert.equal(ft.status, 200, JSON.stringify(ft.body));
  assert.equal(ft.body.status, "APPLIED");
  const ended = (await getMatch(kv, match.id))!;
  assert.deepEqual([ended.homeScore, ended.awayScore, ended.status], [1, 0, "COMPLETED"]);
  assert.equal((await competition(kv, c.id)).status, "LIVE", "LIVE through the grace period");
}
