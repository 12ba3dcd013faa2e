import assert from "node:assert/strict";
import {
  addPrizeRow,
  autoDistribute,
  defaultPrizeRows,
  fixTotal,
  nextPrizeRow,
  type PrizeRow,
  prizeTotal,
  prizeTotalMatches,
  splitPrizes,
} from "@/lib/domain/prizes.ts";
import { rankByPoints } from "@/lib/domain/ranking.ts";
import { toCents } from "@/lib/domain/format.ts";

const prizes = (...amounts: number[]): PrizeRow[] =>
  amounts.map((prize, i) => ({ position: i + 1, prize }));
const ranked = (...ranks: number[]) => ranks.map((rank) => ({ rank }));
const centsSum = (xs: number[]) => xs.reduce((a, x) => a + toCents(x), 0);

Deno.test("[prizes] splitPrizes awards places and splits ties", async (t) => {
  await t.step("no ties: each place gets its prize, the rest 0", () => {
    assert.deepEqual(splitPrizes(ranked(1, 2, 3, 4, 5), prizes(50, 30, 20)), [50, 30, 20, 0, 0]);
  });
  await t.step("a tie for 2nd covers places 2 and 3", () => {
    assert.deepEqual(splitPrizes(ranked(1, 2, 2, 4), prizes(50, 30, 20)), [50, 25, 25, 0]);
  });
  await t.step("a tie across the prize boundary: places 2–4 with prizes for 1–3", () => {
    const awards = splitPrizes(ranked(1, 2, 2, 2, 5), prizes(60, 30, 20));
    assert.deepEqual(awards, [60, 16.67, 16.67, 16.66, 0]);
    assert.equal(centsSum(awards), toCents(110));
  });
  await t.step("a tie starting on the last prize place", () => {
    assert.deepEqual(splitPrizes(ranked(1, 2, 3, 3), prizes(50, 30, 20)), [50, 30, 10, 10]);
  });
  await t.step("a tie entirely outside the prize places gets 0", () => {
    assert.deepEqual(splitPrizes(ranked(1, 2, 3, 4, 4), prizes(50, 30, 20)), [50, 30, 20, 0, 0]);
  });
  await t.step("everyone tied shares the whole structure", () => {
    const awards = splitPrizes(ranked(1, 1, 1), prizes(50, 30, 20.01));
    assert.deepEqual(awards, [33.34, 33.34, 33.33]);
    assert.equal(centsSum(awards), 10001);
  });
  await t.step("remainder cents go to the earliest rows of the tie", () => {
    assert.deepEqual(splitPrizes(ranked(1, 1, 1), prizes(0.02)), [0.01, 0.01, 0]);
    assert.deepEqual(splitPrizes(ranked(1, 1, 1, 1, 1, 1, 1), prizes(100)), [
      14.29,
      14.29,
      14.29,
      14.29,
      14.28,
      14.28,
      14.28,
    ]);
  });
  await t.step("never creates money: the sum equals the prizes of the places covered", () => {
    const structure = prizes(100, 33.33, 17.01, 9.99, 5);
    const total = toCents(prizeTotal(structure));
    for (
      const ranks of [[1, 1, 1, 1, 1, 1], [1, 2, 2, 2, 2, 2], [1, 1, 3, 3, 3], [1, 2, 3, 4, 5], [
        1,
        1,
        1,
      ]]
    ) {
      const awards = splitPrizes(ranks.map((rank) => ({ rank })), structure);
      const covered = ranks.length >= 5
        ? total
        : centsSum(structure.slice(0, ranks.length).map((p) => p.prize));
      assert.equal(centsSum(awards), covered, JSON.stringify(ranks));
      for (const a of awards) assert.equal(a, toCents(a) / 100, "whole cents");
    }
  });
  await t.step("keeps the input order of rows", () => {
    assert.deepEqual(splitPrizes(ranked(4, 1, 2, 2), prizes(50, 30, 20)), [0, 50, 25, 25]);
  });
  await t.step("NON_CASH: no cash rows → all 0", () => {
    assert.deepEqual(splitPrizes(ranked(1, 2, 2, 4), []), [0, 0, 0, 0]);
  });
  await t.step("an empty competition → []", () => {
    assert.deepEqual(splitPrizes([], prizes(50, 30, 20)), []);
  });
  await t.step("gaps in positions: a missing place is worth 0", () => {
    const structure = [{ position: 1, prize: 100 }, { position: 3, prize: 10 }];
    assert.deepEqual(splitPrizes(ranked(1, 2, 3), structure), [100, 0, 10]);
    assert.deepEqual(splitPrizes(ranked(1, 2, 2), structure), [100, 5, 5]);
  });
  await t.step("works on rankByPoints output end to end", () => {
    const board = rankByPoints([
      { id: 1, points: 40 },
      { id: 2, points: 55 },
      { id: 3, points: 40 },
      { id: 4, points: 12 },
    ]);
    const awards = splitPrizes(board, prizes(500, 300, 200));
    assert.deepEqual(board.map((r, i) => [r.id, r.rank, awards[i]]), [
      [2, 1, 500],
      [1, 2, 250],
      [3, 2, 250],
      [4, 4, 0],
    ]);
  });
});

Deno.test("[prizes] autoDistribute follows the weights", async (t) => {
  await t.step("1 row: 100%", () => {
    assert.deepEqual(autoDistribute(100, 1), [{ position: 1, prize: 100 }]);
  });
  await t.step("2 rows: 70/30", () => {
    assert.deepEqual(autoDistribute(100, 2), prizes(70, 30));
  });
  await t.step("3 rows: 50/30/20", () => {
    assert.deepEqual(autoDistribute(1000, 3), prizes(500, 300, 200));
  });
  await t.step("4 rows: halving weights 8/4/2/1 of 15", () => {
    assert.deepEqual(autoDistribute(150, 4), prizes(80, 40, 20, 10));
    assert.deepEqual(autoDistribute(100, 4), prizes(53.33, 26.66, 13.33, 6.68));
  });
  await t.step("5 rows: 16/8/4/2/1 of 31", () => {
    assert.deepEqual(autoDistribute(310, 5), prizes(160, 80, 40, 20, 10));
  });
  await t.step("1..8 rows sum to the pool exactly, in order, none negative", () => {
    for (const pool of [100, 1000, 99.99, 0.01, 0.07, 1, 12345.67, 7]) {
      for (let count = 1; count <= 8; count++) {
        const rows = autoDistribute(pool, count);
        assert.equal(rows.length, count);
        assert.deepEqual(
          rows.map((r) => r.position),
          Array.from({ length: count }, (_, i) => i + 1),
        );
        assert.equal(toCents(prizeTotal(rows)), toCents(pool), `${pool} × ${count}`);
        assert.ok(prizeTotalMatches(rows, pool));
        for (const r of rows) {
          assert.ok(r.prize >= 0, `${pool} × ${count}: ${r.prize}`);
          assert.equal(r.prize, toCents(r.prize) / 100, "whole cents");
        }
        if (pool >= 100) {
          for (let i = 1; i < count; i++) {
            assert.ok(rows[i - 1].prize >= rows[i].prize, "decreasing");
          }
        }
      }
    }
  });
  await t.step("0 or negative count → []", () => {
    assert.deepEqual(autoDistribute(100, 0), []);
    assert.deepEqual(autoDistribute(100, -1), []);
  });
});

Deno.test("[prizes] totals and matching within 0.01", async (t) => {
  await t.step("prizeTotal is exact to the cent", () => {
    assert.equal(prizeTotal([]), 0);
    assert.equal(prizeTotal(prizes(0.1, 0.2)), 0.3);
    assert.equal(prizeTotal(prizes(50, 30, 20)), 100);
  });
  await t.step("prizeTotalMatches", () => {
    assert.equal(prizeTotalMatches(prizes(50, 30, 20), 100), true);
    assert.equal(prizeTotalMatches(prizes(0.1, 0.2), 0.3), true);
    assert.equal(prizeTotalMatches(prizes(50, 30, 19.99), 100), false);
    assert.equal(prizeTotalMatches(prizes(50, 30, 20.01), 100), false);
    assert.equal(prizeTotalMatches(prizes(50, 30, 20.004), 100), true);
    assert.equal(prizeTotalMatches([], 0), true);
    assert.equal(prizeTotalMatches([], 100), false);
  });
});

Deno.test("[prizes] fixTotal puts the remainder on the last row", async (t) => {
  await t.step("a shortfall raises the last row", () => {
    assert.deepEqual(fixTotal(prizes(50, 30, 10), 100), prizes(50, 30, 20));
  });
  await t.step("an excess lowers the last row", () => {
    assert.deepEqual(fixTotal(prizes(50, 30, 25.5), 100), prizes(50, 30, 20));
  });
  await t.step("a remainder of exactly 0.01 is applied", () => {
    assert.deepEqual(fixTotal(prizes(50, 30, 19.99), 100), prizes(50, 30, 20));
    assert.deepEqual(fixTotal(prizes(33.33, 33.33, 33.33), 100), prizes(33.33, 33.33, 33.34));
  });
  await t.step("already matching → an unchanged copy", () => {
    const rows = prizes(50, 30, 20);
    const fixed = fixTotal(rows, 100);
    assert.deepEqual(fixed, rows);
    assert.notEqual(fixed, rows);
  });
  await t.step("cannot adjust when the last row would become 0 or less", () => {
    assert.equal(fixTotal(prizes(80, 20), 80), null);
    assert.equal(fixTotal(prizes(90, 20), 80), null);
  });
  await t.step("cannot adjust with no rows", () => {
    assert.equal(fixTotal([], 100), null);
  });
  await t.step("uses the last row in list order and leaves the input alone", () => {
    const rows = [{ position: 2, prize: 30 }, { position: 1, prize: 50 }];
    assert.deepEqual(fixTotal(rows, 100), [{ position: 2, prize: 30 }, { position: 1, prize: 70 }]);
    assert.equal(rows[1].prize, 50);
  });
  await t.step("the result always matches", () => {
    const fixed = fixTotal(prizes(12.34, 5.55, 1.11), 27.5);
    assert.ok(fixed && prizeTotalMatches(fixed, 27.5));
    assert.equal(fixed?.[2].prize, 9.61);
  });
});

Deno.test("[prizes] Add Position and a new structure's rows", async (t) => {
  await t.step("a new structure starts with three places that add up to the pool", () => {
    for (const pool of [100, 99.99, 0.05, 1000]) {
      const rows = defaultPrizeRows(pool);
      assert.deepEqual(rows.map((r) => r.position), [1, 2, 3]);
      assert.ok(prizeTotalMatches(rows, pool), `${pool}: ${JSON.stringify(rows)}`);
    }
    assert.deepEqual(defaultPrizeRows(100).map((r) => r.prize), [50, 30, 20]);
  });
  await t.step("nextPrizeRow takes the next position and the unallocated rest", () => {
    assert.deepEqual(nextPrizeRow([{ position: 1, prize: 50 }], 100), { position: 2, prize: 50 });
    assert.deepEqual(nextPrizeRow(prizes(50, 30), 100), { position: 3, prize: 20 });
    assert.deepEqual(nextPrizeRow(prizes(0.1, 0.2), 1), { position: 3, prize: 0.7 });
  });
  await t.step("nothing left → 0; over-allocated → 0", () => {
    assert.deepEqual(nextPrizeRow(prizes(50, 50), 100), { position: 3, prize: 0 });
    assert.deepEqual(nextPrizeRow(prizes(80, 50), 100), { position: 3, prize: 0 });
  });
  await t.step("positions follow the highest, not the count", () => {
    assert.deepEqual(nextPrizeRow([{ position: 4, prize: 10 }], 100), { position: 5, prize: 90 });
  });
  await t.step("an empty structure starts at position 1 with the whole pool", () => {
    assert.deepEqual(nextPrizeRow([], 100), { position: 1, prize: 100 });
  });
  await t.step(
    "Add Position never adds a $0 row: with nothing left it halves the last prize",
    () => {
      assert.deepEqual(addPrizeRow(prizes(50, 30), 100), [...prizes(50, 30), {
        position: 3,
        prize: 20,
      }]);
      assert.deepEqual(addPrizeRow(prizes(60, 40), 100), [
        { position: 1, prize: 60 },
        { position: 2, prize: 20 },
        { position: 3, prize: 20 },
      ]);
      assert.deepEqual(addPrizeRow(prizes(99.99, 0.01, 0.03), 100.03), [
        { position: 1, prize: 99.99 },
        { position: 2, prize: 0.01 },
        { position: 3, prize: 0.02 },
        { position: 4, prize: 0.01 },
      ]);
      for (const rows of [prizes(50, 50), prizes(70, 20, 10), prizes(0.5, 0.5)]) {
        const pool = prizeTotal(rows);
        const after = addPrizeRow(rows, pool);
        assert.ok(after.every((r) => r.prize > 0), JSON.stringify(after));
        assert.equal(prizeTotalMatches(after, pool), true);
      }
    },
  );
});

Deno.test("[prizes] splitPrizes shares two prizes across a 100k-entry tie", () => {
  const ranked = Array.from({ length: 100_000 }, () => ({ rank: 1 }));
  const awards = splitPrizes(ranked, [{ position: 1, prize: 1000 }, { position: 2, prize: 500 }]);
  const cents = awards.reduce((sum, a) => sum + toCents(a), 0);
  assert.equal(cents, 150_000);
  assert.equal(awards.filter((a) => a === 0.02).length, 50_000);
  assert.equal(awards.filter((a) => a === 0.01).length, 50_000);
});
