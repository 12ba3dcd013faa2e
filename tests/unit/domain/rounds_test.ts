import assert from "node:assert/strict";
import {
  hasKickedOff,
  lockedSwapProblem,
  pickLock,
  roundClockStatus,
  type SwapPick,
} from "@/lib/domain/rounds.ts";

const T = Date.parse("2030-05-04T15:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const match = (id: number, home: number, away: number, kickoff: number, status = "UPCOMING") => ({
  id,
  homeTeamId: home,
  awayTeamId: away,
  kickoffTime: iso(kickoff),
  status: status as "UPCOMING",
  resultSavedAt: null as string | null,
});

Deno.test("[rounds] a pick locks at its own match's kick-off, or earlier when reported", () => {
  const matches = [match(1, 10, 11, T), match(2, 20, 21, T + 3_600_000)];
  assert.deepEqual(pickLock(matches, 10, new Date(T - 1)), { lockAt: iso(T), locked: false });
  assert.deepEqual(pickLock(matches, 11, new Date(T)), { lockAt: iso(T), locked: true });
  assert.equal(pickLock(matches, 20, new Date(T))!.locked, false);
  assert.equal(pickLock(matches, 99, new Date(T)), null, "a club outside the round");
  assert.equal(hasKickedOff({ kickoffTime: iso(T + 1), status: "LIVE" }, new Date(T)), true);
  assert.equal(
    hasKickedOff({ kickoffTime: iso(T - 1), status: "POSTPONED" as never }, new Date(T)),
    false,
    "a postponed match keeps its players open",
  );
});

Deno.test("[rounds] a swap is refused when a player going out or coming in has locked", () => {
  const open = (id: number): SwapPick => ({
    id,
    name: `Open ${id}`,
    lock: { lockAt: iso(T), locked: false },
  });
  const shut = (id: number): SwapPick => ({
    id,
    name: `Shut ${id}`,
    lock: { lockAt: iso(T), locked: true },
  });
  const team = [shut(1), open(2), open(3)];
  assert.equal(lockedSwapProblem(team, [shut(1), open(2), open(4)]), null, "a locked pick kept");
  assert.equal(lockedSwapProblem(team, [open(5), open(2), open(3)]), "Shut 1 locked at 15:00 UTC");
  assert.equal(lockedSwapProblem(team, [shut(1), shut(6), open(3)]), "Shut 6 locked at 15:00 UTC");
});

Deno.test("[rounds] the round's clock: LIVE at the first kick-off, COMPLETED after the last result", () => {
  const a = match(1, 10, 11, T);
  const b = match(2, 20, 21, T + 7_200_000);
  assert.equal(roundClockStatus("UPCOMING", [a, b], new Date(T - 1)), null);
  assert.equal(roundClockStatus("UPCOMING", [a, b], new Date(T)), "LIVE");
  const aDone = { ...a, status: "COMPLETED" as never, resultSavedAt: iso(T + 6_000_000) };
  assert.equal(roundClockStatus("LIVE", [aDone, b], new Date(T + 86_400_000)), null);
  const bDone = { ...b, status: "COMPLETED" as never, resultSavedAt: iso(T + 13_000_000) };
  assert.equal(
    roundClockStatus("LIVE", [aDone, bDone], new Date(T + 13_000_000 + 29 * 60_000)),
    null,
  );
  assert.equal(
    roundClockStatus("LIVE", [aDone, bDone], new Date(T + 13_000_000 + 30 * 60_000)),
    "COMPLETED",
  );
  assert.equal(roundClockStatus("COMPLETED", [aDone, bDone], new Date(T * 2)), null);
});

Deno.test("[rounds] a postponed match's picks lock at the round's last kick-off", () => {
  const a = match(1, 10, 11, T);
  const late = match(3, 30, 31, T + 7_200_000);
  const off = { ...match(2, 20, 21, T - 60_000), status: "POSTPONED" as never };
  const matches = [a, off, late];
  assert.deepEqual(pickLock(matches, 20, new Date(T + 1)), {
    lockAt: iso(T + 7_200_000),
    locked: false,
  });
  assert.equal(pickLock(matches, 20, new Date(T + 7_200_000))!.locked, true);
  // The round completes without it once the others have their results.
  const done = (m: typeof a, at: number) => ({
    ...m,
    status: "COMPLETED" as never,
    resultSavedAt: iso(at),
  });
  const end = T + 14_000_000;
  assert.equal(
    roundClockStatus(
      "LIVE",
      [done(a, T + 6_000_000), off, done(late, end)],
      new Date(end + 1_800_000),
    ),
    "COMPLETED",
  );
});
