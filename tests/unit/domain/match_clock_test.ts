import assert from "node:assert/strict";
import {
  hasKickedOff,
  isPostponed,
  isStillToPlay,
  matchPhase,
  pickClock,
  picksToPlay,
  scoredPoints,
  singleMatchClock,
} from "@/lib/domain/match_clock.ts";
import { clockStatus } from "@/lib/domain/competition.ts";
import type { Match } from "@/lib/domain/types.ts";

const NOW = new Date("2030-05-01T15:30:00Z");
const EARLIER = "2030-05-01T15:00:00Z";
const LATER = "2030-05-01T17:30:00Z";
const at = (status: Match["status"], kickoffTime = EARLIER) => ({ status, kickoffTime });

Deno.test("[match clock] a match's phase: scheduled, in play (reported or by the clock), full time, postponed", () => {
  assert.equal(matchPhase(at("UPCOMING", LATER), NOW), "SCHEDULED");
  assert.equal(matchPhase(at("UPCOMING", EARLIER), NOW), "IN_PLAY", "the scheduled time passed");
  assert.equal(matchPhase(at("LIVE", LATER), NOW), "IN_PLAY", "kick-off reported early");
  assert.equal(matchPhase(at("COMPLETED"), NOW), "FULL_TIME");
  assert.equal(matchPhase(at("POSTPONED"), NOW), "POSTPONED");
  assert.equal(hasKickedOff(at("POSTPONED"), NOW), false, "its old kick-off passed: no matter");
  assert.ok(isPostponed(at("POSTPONED")) && !isPostponed(at("UPCOMING")));
  assert.deepEqual(
    (["SCHEDULED", "IN_PLAY", "FULL_TIME", "POSTPONED"] as const).map(isStillToPlay),
    [true, true, false, false],
  );
});

Deno.test("[match clock] per pick over a round: picks to play, settled, the next change, postponed scores 0", () => {
  const early = at("COMPLETED");
  const live = at("LIVE");
  const late = at("UPCOMING", LATER);
  const off = at("POSTPONED");
  const matchOf = new Map([[1, early], [2, live], [3, late], [4, off], [5, late]]);
  const clock = pickClock(
    { status: "LIVE" },
    [early, live, late, off],
    (id) => matchOf.get(id),
    NOW,
  );
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(clock.phaseOf),
    ["FULL_TIME", "IN_PLAY", "SCHEDULED", "POSTPONED", "SCHEDULED"],
  );
  assert.equal(picksToPlay([1, 2, 3, 4, 5], clock), 3, "in play + not kicked off");
  assert.equal(clock.settled, false);
  assert.equal(clock.nextChangeMs, Date.parse(LATER), "the late match's kick-off");
  assert.deepEqual(
    [...scoredPoints(new Map([[1, { totalPoints: 6 }], [4, { totalPoints: 3 }]]), clock)],
    [[1, 6], [4, 0]],
  );

  const done = pickClock({ status: "LIVE" }, [early, off], (id) => (id === 4 ? off : early), NOW);
  assert.equal(done.settled, true, "every match over or postponed");
  assert.equal(done.nextChangeMs, Infinity);
  assert.notEqual(done.key, clock.key);

  const completed = singleMatchClock({ status: "COMPLETED" }, at("LIVE"), NOW);
  assert.equal(completed.phaseOf(1), "FULL_TIME", "a completed contest is over for every pick");
  assert.equal(picksToPlay([1, 2], completed), 0);
  const none = singleMatchClock({ status: "UPCOMING" }, null, NOW);
  assert.equal(none.phaseOf(9), "SCHEDULED", "no match: the contest's status stands for it");
});

Deno.test("[match clock] an automatic contest does not go LIVE at a postponed match's old kick-off", () => {
  assert.equal(clockStatus("UPCOMING", at("UPCOMING"), NOW), "LIVE");
  assert.equal(clockStatus("UPCOMING", at("POSTPONED"), NOW), null);
  assert.equal(clockStatus("LIVE", at("POSTPONED"), NOW), null, "nor completes without a result");
});
