import assert from "node:assert/strict";
import { awardPlaces } from "@/lib/domain/prizes.ts";
import { pointsKey, rankIndexes } from "@/lib/domain/ranking.ts";
import { rankStandings } from "@/lib/domain/standings.ts";
import { prng } from "@/lib/prng.ts";

/** The textbook ranking: sort by points (1 decimal) then tie order, rank = 1 + count above. */
function naiveRanking(points: number[], tieOrder: number[]) {
  const tiePos = new Map(tieOrder.map((index, t) => [index, t]));
  const order = [...tieOrder].sort((a, b) =>
    pointsKey(points[b]) - pointsKey(points[a]) || tiePos.get(a)! - tiePos.get(b)!
  );
  const ranks = order.map((index) =>
    1 + points.filter((p) => pointsKey(p) > pointsKey(points[index])).length
  );
  return { order, ranks };
}

Deno.test("[standings engine] rankIndexes equals the textbook ranking on random data", () => {
  const random = prng(3);
  for (let round = 0; round < 40; round++) {
    const n = Math.floor(random() * 300);
    const huge = round % 10 === 9;
    const points = Array.from({ length: n }, () => {
      const p = Math.round((random() * 40 - 8) * 2) / 2 + (random() < 0.1 ? 0.1 + 0.2 - 0.3 : 0);
      return huge && random() < 0.2 ? p * 1e9 : p;
    });
    const tieOrder = Array.from({ length: n }, (_, i) => i).sort(() => random() - 0.5);
    const { order, ranks } = rankIndexes(points, Uint32Array.from(tieOrder));
    const expected = naiveRanking(points, tieOrder);
    assert.deepEqual([...order], expected.order, `order, round ${round}`);
    assert.deepEqual([...ranks], expected.ranks, `ranks, round ${round}`);
  }
});

Deno.test("[standings engine] awardPlaces splits ties over the places they cover", async (t) => {
  const places = [
    { position: 1, prize: 50, customPrizeDescription: "Gold" },
    { position: 2, prize: 30, customPrizeDescription: null },
    { position: 3, prize: 20.01, customPrizeDescription: "Bronze" },
  ];
  await t.step("no ties: each place its prize", () => {
    const { cents } = awardPlaces([1, 2, 3, 4], places);
    assert.deepEqual([...cents], [5000, 3000, 2001, 0]);
  });
  await t.step("a three-way tie for 2nd shares places 2-4, spare cents to the earliest", () => {
    const { cents } = awardPlaces([1, 2, 2, 2, 5], places);
    assert.deepEqual([...cents], [5000, 1667, 1667, 1667, 0]);
    assert.equal(cents.reduce((a, b) => a + b, 0), 5000 + 3000 + 2001);
  });
  await t.step("a tie across the last place shares only that place", () => {
    const { cents } = awardPlaces([1, 2, 3, 3, 3], places);
    assert.deepEqual([...cents], [5000, 3000, 667, 667, 667]);
  });
  await t.step("everyone tied at 1 splits the whole pot", () => {
    const { cents } = awardPlaces([1, 1, 1, 1, 1, 1, 1], places);
    assert.equal(cents.reduce((a, b) => a + b, 0), 10001);
    assert.deepEqual([...cents], [1429, 1429, 1429, 1429, 1429, 1428, 1428]);
  });
  await t.step("descriptions: the best covered place, else the fallback", () => {
    const { descriptionByRank } = awardPlaces([1, 2, 2, 4], places, "Shirt");
    assert.deepEqual([...descriptionByRank], [[1, "Gold"], [2, "Shirt"]]);
  });
  await t.step("no places → nothing", () => {
    const { cents, descriptionByRank } = awardPlaces([1, 1, 3], []);
    assert.deepEqual([...cents], [0, 0, 0]);
    assert.equal(descriptionByRank.size, 0);
  });
});

Deno.test("[standings engine] rankStandings: picks → points, createdAt/id ties, CASH and NON_CASH", () => {
  const cols = {
    length: 4,
    ids: [10, 11, 12, 13],
    createdMs: [300, 100, 100, 200],
    picks: [1, 2, 1, 3, 2, 3, 4, 4],
    pickStart: [0, 2, 4, 6, 8],
  };
  const perPlayer = new Map([[1, 2.5], [2, 0.5], [3, 0.5], [4, 1.5]]);
  const prizes = [{ position: 1, prize: 10, customPrizeDescription: null }, {
    position: 2,
    prize: 5,
    customPrizeDescription: null,
  }];
  const cash = rankStandings(cols, perPlayer, {
    prizeType: "CASH",
    customPrizeDescription: null,
    prizes,
  });
  assert.deepEqual([...cash.points], [3, 3, 1, 3]);
  // Tied at 3: entry 11 (t=100) before 13 (t=200) before 10 (t=300).
  assert.deepEqual([...cash.order], [1, 3, 0, 2]);
  assert.deepEqual([...cash.ranks], [1, 1, 1, 4]);
  assert.deepEqual([...cash.awards!.cents], [500, 500, 500, 0]);
  const prize = rankStandings(cols, perPlayer, {
    prizeType: "NON_CASH",
    customPrizeDescription: "Signed ball",
    prizes,
  });
  assert.deepEqual([...prize.awards!.cents], [0, 0, 0, 0]);
  assert.deepEqual([...prize.awards!.descriptionByRank], [[1, "Signed ball"]]);
  assert.equal(rankStandings(cols, perPlayer, null).awards, null);
});
