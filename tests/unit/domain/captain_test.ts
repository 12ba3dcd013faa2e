import assert from "node:assert/strict";
import {
  captainProblems,
  captainScoring,
  keptCaptaincy,
  multipliedPick,
  multiplyPoints,
  validMultiplier,
} from "@/lib/domain/captain.ts";
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

Deno.test("[captain] the vice-captain takes the multiplier only when the captain did not play", () => {
  const played = new Set([1, 2]);
  assert.equal(multipliedPick(1, 2, played), 1);
  assert.equal(multipliedPick(3, 2, played), 2, "captain 3 did not play");
  assert.equal(multipliedPick(3, 0, played), 3, "no vice: the captain keeps it (0 points anyway)");
  assert.equal(multipliedPick(0, 2, played), 0, "no captain: no multiplier");
  const scoring = captainScoring(
    { captainMultiplier: 2 },
    new Map([
      [1, { minutesPlayed: 90, totalPoints: 2 }],
      [2, { minutesPlayed: 0, totalPoints: 4 }], // an event recorded: he played
      [3, { minutesPlayed: 0, totalPoints: 0 }],
    ]),
  );
  assert.deepEqual([...scoring!.played].sort(), [1, 2]);
  assert.equal(captainScoring({ captainMultiplier: null }, new Map()), null);
  assert.equal(captainScoring({}, new Map()), null, "absent: off (competitions made before)");
});

Deno.test("[captain] team points: the captain's points counted multiplier times, in tenths", () => {
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
  const points = teamPoints(cols, perPlayer, { multiplier: 1.5, played });
  assert.deepEqual(Array.from(points), [
    multiplyPoints(5.5, 1.5) + 0.5, // 8.3 (8.25 half up) + 0.5
    5.5 + multiplyPoints(0.5, 1.5), // captain 3 did not play: vice 2's 0.5 → 0.8
    6,
  ]);
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
