import assert from "node:assert/strict";
import { rankByPoints } from "@/lib/domain/ranking.ts";

const rows = (...points: number[]) => points.map((p, i) => ({ id: i + 1, points: p }));
const ranks = <T extends { points: number }>(r: T[]) => rankByPoints(r).map((x) => x.rank);

Deno.test("[ranking] standard competition ranking by points", async (t) => {
  await t.step("1, 2, 2, 4", () => {
    const ranked = rankByPoints(rows(10, 20, 15, 15));
    assert.deepEqual(ranked.map((r) => [r.id, r.points, r.rank]), [
      [2, 20, 1],
      [3, 15, 2],
      [4, 15, 2],
      [1, 10, 4],
    ]);
  });
  await t.step("distinct points rank 1..n", () => {
    assert.deepEqual(ranks(rows(1, 5, 3, 4, 2)), [1, 2, 3, 4, 5]);
  });
  await t.step("all tied → all rank 1", () => {
    assert.deepEqual(ranks(rows(7, 7, 7, 7)), [1, 1, 1, 1]);
    assert.deepEqual(ranks(rows(0, 0, 0)), [1, 1, 1]);
  });
  await t.step("empty → []", () => {
    assert.deepEqual(rankByPoints([]), []);
  });
  await t.step("a single row is 1st", () => {
    assert.deepEqual(rankByPoints(rows(0)), [{ id: 1, points: 0, rank: 1 }]);
  });
  await t.step("several ties: 1, 1, 3, 4, 4, 4, 7", () => {
    assert.deepEqual(ranks(rows(9, 9, 8, 5, 5, 5, 1)), [1, 1, 3, 4, 4, 4, 7]);
  });
  await t.step("negative and half points", () => {
    const ranked = rankByPoints(rows(-3, 2.5, 0, -3, 2.5, 2));
    assert.deepEqual(ranked.map((r) => [r.points, r.rank]), [
      [2.5, 1],
      [2.5, 1],
      [2, 3],
      [0, 4],
      [-3, 5],
      [-3, 5],
    ]);
  });
  await t.step("float noise does not split a tie", () => {
    assert.deepEqual(ranks(rows(0.1 + 0.2, 0.3)), [1, 1]);
  });
});

Deno.test("[ranking] ties keep input order unless a tieBreak orders them", async (t) => {
  const entries = [
    { id: "a", points: 10, createdAt: "2030-01-03" },
    { id: "b", points: 12, createdAt: "2030-01-05" },
    { id: "c", points: 10, createdAt: "2030-01-01" },
    { id: "d", points: 10, createdAt: "2030-01-02" },
  ];
  await t.step("stable without a tieBreak", () => {
    assert.deepEqual(rankByPoints(entries).map((r) => r.id), ["b", "a", "c", "d"]);
  });
  await t.step("tieBreak orders within the tie but the ranks stay shared", () => {
    const ranked = rankByPoints(entries, (x, y) => x.createdAt.localeCompare(y.createdAt));
    assert.deepEqual(ranked.map((r) => [r.id, r.rank]), [["b", 1], ["c", 2], ["d", 2], ["a", 2]]);
  });
  await t.step("tieBreak never overrides points", () => {
    const ranked = rankByPoints(entries, (x, y) => y.createdAt.localeCompare(x.createdAt));
    assert.equal(ranked[0].id, "b");
  });
  await t.step("the input is not modified", () => {
    const copy = structuredClone(entries);
    rankByPoints(entries);
    assert.deepEqual(entries, copy);
    assert.equal("rank" in entries[0], false);
  });
  await t.step("other fields are kept", () => {
    assert.deepEqual(rankByPoints([entries[1]]), [{ ...entries[1], rank: 1 }]);
  });
});
