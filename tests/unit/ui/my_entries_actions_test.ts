/** My entries offers only what the server will do: a refunded entry can neither change nor lead. */
import assert from "node:assert/strict";
import { entryCanLead, entryEditable } from "@/lib/client/my_entries.ts";
import type { EntrySummary } from "@/lib/domain/live.ts";

const NOW = Date.parse("2026-11-28T12:00:00Z");

function summary(overrides: Partial<EntrySummary> = {}, status = "UPCOMING"): EntrySummary {
  return {
    teamId: "FFT-AAAA1111",
    displayName: "Jane",
    createdAt: "2026-11-27T12:00:00Z",
    competition: {
      id: 1,
      name: "Cup",
      status: status as EntrySummary["competition"]["status"],
      currency: "USD",
      prizeType: "CASH",
      deadline: "2026-11-28T15:00:00Z",
    },
    points: null,
    rank: null,
    prize: null,
    prizeDescription: null,
    refunded: false,
    ...overrides,
  };
}

Deno.test("[my entries] a refunded entry offers no edit and no league", () => {
  assert.equal(entryEditable(summary(), NOW), true);
  assert.equal(entryCanLead(summary()), true);
  assert.equal(entryEditable(summary({ refunded: true }), NOW), false);
  assert.equal(entryCanLead(summary({ refunded: true })), false);
  assert.equal(entryCanLead(summary({}, "CANCELLED")), false);
  assert.equal(entryEditable(summary({}, "LIVE"), NOW), false);
  assert.equal(
    entryEditable(summary(), Date.parse("2026-11-28T15:00:01Z")),
    false,
    "past deadline",
  );
  assert.equal(entryCanLead(summary({}, "COMPLETED")), true, "a finished contest keeps leagues");
});
