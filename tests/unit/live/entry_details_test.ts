import assert from "node:assert/strict";
import { parseEntryDetails, UNEXPECTED_FORMAT } from "@/lib/client/live/entry_details.ts";
import { formatPoints, pointsText } from "@/lib/domain/format.ts";
import { formatLine, rowPrizeText } from "@/lib/client/live/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

function details(overrides: Record<string, unknown> = {}) {
  return {
    entry: { id: 1, teamId: "FFT-AAAA1111", teamName: "Alpha", points: "7.5", totalPoints: "7.5" },
    competition: { id: 2, name: "Cup" },
    players: [{
      id: 3,
      name: "Ann Keeper",
      position: "GK",
      points: "7.5",
      team: { name: "Club", shortName: "CLB", logoUrl: null },
      breakdown: [
        { label: "Goals", count: "1", value: 6, points: 6 },
        { label: "Saves", count: 3, value: 0.5, points: "1.5" },
      ],
    }],
    ...overrides,
  };
}

Deno.test("[live] entry details: numeric strings become numbers, empty becomes 0", () => {
  const parsed = parseEntryDetails(details());
  assert.equal(parsed.entry.totalPoints, 7.5);
  assert.deepEqual(parsed.players[0].breakdown.map((l) => [l.count, l.points]), [[1, 6], [3, 1.5]]);
  const empty = parseEntryDetails(details({
    entry: { id: 1, teamId: "FFT-A", teamName: "", points: "", totalPoints: null },
  }));
  assert.equal(empty.entry.totalPoints, 0);
});

Deno.test("[live] entry details: a shape mismatch names the field", () => {
  assert.throws(
    () => parseEntryDetails(details({ players: [{ id: 3, position: "GK", points: 1 }] })),
    (err: Error) => /^Data format error: .+ at players\.0\.name$/.test(err.message),
  );
  assert.throws(() => parseEntryDetails(null), (err: Error) => err.message === UNEXPECTED_FORMAT);
  assert.throws(() => parseEntryDetails("x"), (err: Error) => err.message === UNEXPECTED_FORMAT);
});

Deno.test("[live] breakdown lines read 'count × value = result' and add up", () => {
  const [player] = parseEntryDetails(details()).players;
  assert.deepEqual(player.breakdown.map(formatLine), ["1 × 6 = 6", "3 × 0.5 = 1.5"]);
  const sum = player.breakdown.reduce((total, line) => total + line.points, 0);
  assert.equal(formatPoints(sum), formatPoints(player.points));
  assert.equal(formatLine({ count: 1, value: -1, points: -1 }), "1 × -1 = -1");
  // The captain's line says what the armband did to the pick's own points, not "4 × 1 = 4".
  assert.equal(formatLine({ key: "captain", count: 4, value: 1, points: 4 }), "4 pts × 2 = 8, +4");
  assert.equal(
    formatLine({ key: "captain", count: 5, value: 0.5, points: 2.5 }),
    "5 pts × 1.5 = 7.5, +2.5",
  );
  assert.equal(
    formatLine({ key: "captain", count: -2, value: 1, points: -2 }),
    "-2 pts × 2 = -4, −2",
  );
  assert.equal(formatPoints(12), "12");
  assert.equal(formatPoints(-0.04), "0");
});

Deno.test("[live] points with their unit: one point is '1 pt'", () => {
  assert.deepEqual([1, 1.04, 0, 4.5, -1, 12].map((n) => pointsText(n)), [
    "1 pt",
    "1 pt",
    "0 pts",
    "4.5 pts",
    "-1 pts",
    "12 pts",
  ]);
  assert.equal(pointsText("1"), "1 pt", "an already formatted number");
});

Deno.test("[live] row prize text: money, NON_CASH description, or nothing", () => {
  const row: LeaderboardRow = {
    id: 1,
    teamId: "FFT-1",
    teamName: "A",
    displayName: "A",
    points: 3,
    rank: 1,
    prize: 150,
    prizeType: "CASH",
    customPrizeDescription: null,
  };
  assert.equal(rowPrizeText(row, "USD"), "$150.00");
  assert.equal(rowPrizeText(row, "GBP"), "£150.00");
  assert.equal(rowPrizeText({ ...row, prize: 0 }, "USD"), null);
  assert.equal(rowPrizeText({ ...row, prize: null }, "USD"), null);
  assert.equal(
    rowPrizeText(
      { ...row, prizeType: "NON_CASH", prize: 0, customPrizeDescription: "Shirt" },
      "USD",
    ),
    "Shirt",
  );
});
