import assert from "node:assert/strict";
import {
  actingCaptain,
  captainProblems,
  captainScoring,
  keptCaptaincy,
  multiplyPoints,
  validMultiplier,
} from "@/lib/domain/captain.ts";
import { type PickClock, pickClock, singleMatchClock } from "@/lib/domain/match_clock.ts";
import type { Match } from "@/lib/domain/types.ts";
import { teamPoints } from "@/lib/domain/standings.ts";

Deno.test("[captain] points × multiplier stay exact in tenths, rounded half up", () => {
  assert.equal(multiplyPoints(7, 2), 14);
  assert.equal(multiplyPoints(5, 1.5), 7.5);
  assert.equal(multiplyPoints(0.5, 1.5), 0.8, "0.75 rounds half up");
  assert.equal(multiplyPoints(-0.5, 1.5), -0.7, "-0.75 rounds half up too (towards +∞)");
  assert.equal(multiplyPoints(2.3, 1.5), 3.5, "3.45 exactly, not 3.4499… in floats");
  assert.equal(multiplyPoints(-3, 3), -9);
  assert.equal(multiplyPoints(0, 2.7), 0);
  assert.equal(Object.is(multiplyPoints(-0.1, 0), 0), true, "never -0");
  for (const m of [1.5, 1.6, 2, 2.5, 2.9, 3]) assert.ok(validMultiplier(m), String(m));
  for (const m of [1, 1.4, 3.1, 2.25, NaN, Infinity]) assert.ok(!validMultiplier(m), String(m));
});

const NOW = new Date("2030-05-01T15:30:00Z");
const EARLIER = "2030-05-01T15:00:00Z";
const LATER = "2030-05-01T17:30:00Z";
type Status = Match["status"];
const matchAt = (status: Status, kickoffTime = EARLIER) => ({ status, kickoffTime });
/** A contest whose players 1..3 play in `a`, 4..6 in `b` (a round of two matches). */
function twoMatches(a: ReturnType<typeof matchAt>, b: ReturnType<typeof matchAt>) {
  return pickClock({ status: "LIVE" }, [a, b], (id) => (id <= 3 ? a : b), NOW);
}

Deno.test("[captain] who acts in each state of the captain's match: the vice only after full time with 0 minutes", async (t) => {
  const captain = 1;
  const vice = 4;
  const scoreWith = (clock: PickClock, minutes: number, points = 0) =>
    captainScoring(
      { captainMultiplier: 2 },
      new Map([[captain, { minutesPlayed: minutes, totalPoints: points }]]),
      clock,
    )!;
  const acting = (clock: PickClock, minutes: number, points = 0) =>
    actingCaptain(captain, vice, scoreWith(clock, minutes, points));
  const vicesMatch = matchAt("LIVE");
  const cases: [string, ReturnType<typeof matchAt>, number, number][] = [
    ["before kick-off", matchAt("UPCOMING", LATER), 0, captain],
    ["kick-off time passed, nothing reported: in play", matchAt("UPCOMING"), 0, captain],
    ["in play, 0 minutes recorded yet", matchAt("LIVE"), 0, captain],
    ["in play with minutes", matchAt("LIVE"), 30, captain],
    ["full time with minutes", matchAt("COMPLETED"), 90, captain],
    ["full time with 0 minutes", matchAt("COMPLETED"), 0, vice],
    ["postponed, the contest's other match still in play", matchAt("POSTPONED"), 0, captain],
  ];
  for (const [name, captainsMatch, minutes, expected] of cases) {
    await t.step(name, () => {
      assert.equal(acting(twoMatches(captainsMatch, vicesMatch), minutes), expected);
    });
  }
  await t.step("full time, 0 minutes but an event's points: he played", () => {
    assert.equal(acting(twoMatches(matchAt("COMPLETED"), vicesMatch), 0, 5), captain);
  });
  await t.step("postponed, every other match over: the vice takes over", () => {
    const clock = twoMatches(matchAt("POSTPONED"), matchAt("COMPLETED"));
    assert.equal(clock.settled, true);
    assert.equal(acting(clock, 0), vice);
    assert.equal(acting(clock, 90, 2), vice, "a postponed match's minutes do not count");
  });
  await t.step("postponed, the contest completed: the vice takes over", () => {
    const m = matchAt("POSTPONED");
    const clock = pickClock({ status: "COMPLETED" }, [m], () => m, NOW);
    assert.equal(acting(clock, 0), vice);
  });
  await t.step("no vice: the captain keeps it; no captain: nobody", () => {
    const clock = twoMatches(matchAt("COMPLETED"), vicesMatch);
    assert.equal(actingCaptain(captain, 0, scoreWith(clock, 0)), captain);
    assert.equal(actingCaptain(0, vice, scoreWith(clock, 0)), 0);
  });
  await t.step("a contest on no match follows its status", () => {
    const live = singleMatchClock({ status: "LIVE" }, null, NOW);
    assert.equal(acting(live, 0), captain, "LIVE: in play");
    const done = singleMatchClock({ status: "COMPLETED" }, null, NOW);
    assert.equal(acting(done, 0), vice, "COMPLETED: over");
  });
});

Deno.test("[captain] captain scoring: who played, never a postponed match's players", () => {
  const clock = twoMatches(matchAt("LIVE"), matchAt("POSTPONED"));
  const scoring = captainScoring(
    { captainMultiplier: 2 },
    new Map([
      [1, { minutesPlayed: 90, totalPoints: 2 }],
      [2, { minutesPlayed: 0, totalPoints: 4 }], // an event recorded: he played
      [3, { minutesPlayed: 0, totalPoints: 0 }],
      [4, { minutesPlayed: 20, totalPoints: 1 }], // his match was called off after
    ]),
    clock,
  );
  assert.deepEqual([...scoring!.played].sort(), [1, 2]);
  assert.equal(captainScoring({ captainMultiplier: null }, new Map(), clock), null);
  assert.equal(
    captainScoring({}, new Map(), clock),
    null,
    "absent: off (competitions made before)",
  );
});

Deno.test("[captain] team points: the acting captain's points counted multiplier times, in tenths", () => {
  const cols = {
    length: 3,
    ids: [1, 2, 3],
    createdMs: [1, 2, 3],
    picks: [1, 2, 3, 1, 2, 3, 1, 2, 3],
    pickStart: [0, 3, 6, 9],
    captains: [1, 3, 0],
    vices: [2, 2, 0],
  };
  const perPlayer = new Map([[1, 5.5], [2, 0.5], [3, 0]]);
  const played = new Set([1, 2]);
  const over = singleMatchClock({ status: "LIVE" }, matchAt("COMPLETED"), NOW);
  const points = teamPoints(cols, perPlayer, { multiplier: 1.5, played, clock: over });
  assert.deepEqual(Array.from(points), [
    multiplyPoints(5.5, 1.5) + 0.5, // 8.3 (8.25 half up) + 0.5
    5.5 + multiplyPoints(0.5, 1.5), // full time, captain 3 did not play: vice 2's 0.5 → 0.8
    6,
  ]);
  const inPlay = singleMatchClock({ status: "LIVE" }, matchAt("LIVE"), NOW);
  assert.deepEqual(
    Array.from(teamPoints(cols, perPlayer, { multiplier: 1.5, played, clock: inPlay })),
    [multiplyPoints(5.5, 1.5) + 0.5, 6, 6],
    "in play: captain 3 keeps the armband on 0 points; the vice's 0.5 counts once",
  );
  assert.deepEqual(Array.from(teamPoints(cols, perPlayer)), [6, 6, 6], "off: plain sums");
});

Deno.test("[captain] problems name the field; a commit keeps only a valid choice", () => {
  const on = { captainMultiplier: 2 };
  const picks = [1, 2, 3, 4, 5];
  assert.deepEqual(captainProblems(on, picks, { captainId: 1, viceCaptainId: 2 }), []);
  assert.deepEqual(
    captainProblems(on, picks, { captainId: 9, viceCaptainId: 9 }).map((i) => i.path[0]),
    ["captainId", "viceCaptainId"],
  );
  assert.deepEqual(captainProblems({}, picks, {}), []);
  assert.deepEqual(keptCaptaincy(on, picks, { captainId: 1, viceCaptainId: 2 }), {
    captainId: 1,
    viceCaptainId: 2,
  });
  assert.deepEqual(keptCaptaincy(on, picks, { captainId: 1 }), {});
  assert.deepEqual(keptCaptaincy({}, picks, { captainId: 1, viceCaptainId: 2 }), {});
});
