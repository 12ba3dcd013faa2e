import assert from "node:assert/strict";
import { matchOutcome } from "@/lib/domain/match_result.ts";

Deno.test("[match_result] both scores set give the result and COMPLETED", async (t) => {
  const cases = [
    [2, 1, "HOME_WIN"],
    [0, 1, "AWAY_WIN"],
    [0, 0, "DRAW"],
    [3, 3, "DRAW"],
  ] as const;
  for (const [home, away, result] of cases) {
    await t.step(`${home}-${away} → ${result}`, () => {
      assert.deepEqual(matchOutcome(home, away), { result, status: "COMPLETED" });
    });
  }
});

Deno.test("[match_result] a missing score gives NOT_PLAYED and UPCOMING", () => {
  for (const [home, away] of [[null, 1], [2, null], [null, null], [undefined, 0]] as const) {
    assert.deepEqual(matchOutcome(home, away), { result: "NOT_PLAYED", status: "UPCOMING" });
  }
});
