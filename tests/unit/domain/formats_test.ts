import assert from "node:assert/strict";
import {
  competitionsFromTemplates,
  type ContestBase,
  frozenPrizes,
  growingPoolCents,
  MAX_PRIZE_PLACES,
  payoutTable,
  shownPrizePool,
  tierStarts,
} from "@/lib/domain/formats.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { toCents } from "@/lib/domain/format.ts";
import { splitPrizes } from "@/lib/domain/prizes.ts";
import type { ContestFormat } from "@/lib/domain/types.ts";

const cents = (rows: { prize: number }[]) => rows.map((r) => toCents(r.prize));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const base: ContestBase = {
  matchId: 4,
  title: "Arsenal v Chelsea",
  league: "PREMIER_LEAGUE",
  deadline: "2030-01-01T15:00:00.000Z",
  entryFee: 5,
  currency: "USD",
};

const growing: ContestFormat = {
  template: "TOURNAMENT",
  payout: "TIERED",
  pool: "GROWING",
  operatorSharePercent: 10,
  frozenAt: null,
};

Deno.test("[formats] a growing pool is fee × entries × (1 − share), floored to the cent", () => {
  assert.equal(growingPoolCents(5, 7, 10), 3150);
  assert.equal(growingPoolCents(3.33, 3, 12.5), 874); // 999 × 0.875 = 874.125
  assert.equal(growingPoolCents(5, 0, 10), 0);
  assert.equal(growingPoolCents(10, 1_000_000, 0), 1_000_000_000);
  const c = { prizePool: 0, entryFee: 5, currentEntries: 7, format: growing };
  assert.equal(shownPrizePool(c), 31.5);
  assert.equal(shownPrizePool({ ...c, prizePool: 20, format: { ...growing, frozenAt: "x" } }), 20);
  assert.equal(
    shownPrizePool({ ...c, prizePool: 80, format: { ...growing, pool: "GUARANTEED" } }),
    80,
  );
  assert.equal(shownPrizePool({ ...c, prizePool: 80, format: null }), 80);
});

Deno.test("[formats] head-to-head: the winner takes the pool; a tie splits it to the cent", () => {
  assert.deepEqual(payoutTable("WINNER_TAKES_ALL", 2, 901), [{ position: 1, prize: 9.01 }]);
  const rows = payoutTable("WINNER_TAKES_ALL", 2, 901);
  assert.deepEqual(splitPrizes([{ rank: 1 }, { rank: 1 }], rows), [4.51, 4.5]);
  assert.deepEqual(splitPrizes([{ rank: 1 }, { rank: 2 }], rows), [9.01, 0]);
});

Deno.test("[formats] 50/50: the top half share the pool equally, leftover cents to the top", async (t) => {
  await t.step("an even field", () => {
    const rows = payoutTable("TOP_HALF", 10, 4500);
    assert.deepEqual(cents(rows), [900, 900, 900, 900, 900]);
  });
  await t.step("leftover cents", () => {
    const rows = payoutTable("TOP_HALF", 6, 1001);
    assert.deepEqual(cents(rows), [334, 334, 333]);
    assert.equal(sum(cents(rows)), 1001);
  });
  await t.step("an odd field pays its lower half", () => {
    assert.equal(payoutTable("TOP_HALF", 7, 700).length, 3);
  });
  await t.step("a tie across the cut splits the places it covers", () => {
    const rows = payoutTable("TOP_HALF", 4, 1000); // 2 paid: 5.00 each
    // ranks 1, 2, 2, 4: the two tied at 2 cover places 2 and 3 → 5.00 between them.
    assert.deepEqual(splitPrizes([{ rank: 1 }, { rank: 2 }, { rank: 2 }, { rank: 4 }], rows), [
      5,
      2.5,
      2.5,
      0,
    ]);
  });
});

Deno.test("[formats] tournament: about the top 20% paid, falling in tiers, exact cents", async (t) => {
  await t.step("tiers", () => {
    assert.deepEqual(tierStarts(1), [1]);
    assert.deepEqual(tierStarts(20), [1, 2, 3, 4, 6, 11, 16]);
    assert.deepEqual(tierStarts(200), [1, 2, 3, 4, 6, 11, 16, 21, 31, 51, 101]);
  });
  await t.step("a field of 10 pays 2: 60/40", () => {
    assert.deepEqual(cents(payoutTable("TIERED", 10, 10000)), [6000, 4000]);
  });
  await t.step("small fields pay the winner", () => {
    for (const field of [1, 2, 3, 4, 9]) {
      assert.equal(payoutTable("TIERED", field, 1234).length, Math.max(1, Math.floor(field / 5)));
    }
  });
  await t.step("a field of 100 pays 20, equal within tiers, sums to the pool", () => {
    const rows = cents(payoutTable("TIERED", 100, 45_000));
    assert.equal(rows.length, 20);
    assert.equal(sum(rows), 45_000);
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i] <= rows[i - 1], `place ${i + 1}`);
    assert.equal(rows[3], rows[4], "4th and 5th share a tier");
    assert.deepEqual(new Set(rows.slice(5, 10)).size, 1, "6th to 10th share a tier");
    assert.deepEqual(new Set(rows.slice(15, 20)).size, 1, "16th to 20th share a tier");
  });
  await t.step("every field from 1 to 2000 sums to the pool exactly, no place below a cent", () => {
    for (let field = 1; field <= 2000; field += 7) {
      const pool = 137 * field + 3;
      const rows = cents(payoutTable("TIERED", field, pool));
      assert.equal(sum(rows), pool, `field ${field}`);
      assert.ok(rows.every((c) => c >= 1));
    }
  });
  await t.step("a big field pays at most MAX_PRIZE_PLACES places", () => {
    const rows = cents(payoutTable("TIERED", 1_000_000, 450_000_000));
    assert.equal(rows.length, MAX_PRIZE_PLACES);
    assert.equal(sum(rows), 450_000_000);
  });
  await t.step("a pool too small for every place pays fewer places", () => {
    const rows = cents(payoutTable("TIERED", 100, 7));
    assert.equal(sum(rows), 7);
    assert.ok(rows.length < 20 && rows.every((c) => c >= 1));
  });
  await t.step("nothing to pay", () => {
    assert.deepEqual(payoutTable("TIERED", 0, 100), []);
    assert.deepEqual(payoutTable("TOP_HALF", 10, 0), []);
  });
});

Deno.test("[formats] a frozen table comes from the entries held and the pool mode", () => {
  const c = { prizePool: 0, entryFee: 10, currentEntries: 25, format: growing };
  const frozen = frozenPrizes(c);
  assert.equal(frozen.poolCents, 22_500);
  assert.equal(frozen.prizes.length, 5);
  assert.equal(sum(cents(frozen.prizes)), 22_500);
  const guaranteed = frozenPrizes({
    ...c,
    prizePool: 500,
    format: { ...growing, pool: "GUARANTEED" },
  });
  assert.equal(guaranteed.poolCents, 50_000);
  assert.equal(sum(cents(guaranteed.prizes)), 50_000);
});

Deno.test("[formats] competitionsFromTemplates makes one competition per template", () => {
  const plans = competitionsFromTemplates(base, [
    { format: "HEAD_TO_HEAD" },
    { format: "FIFTY_FIFTY", maxEntries: 20, pool: "GUARANTEED", prizePool: 90 },
    { format: "TOURNAMENT", entryFee: 3, operatorSharePercent: 15 },
    { format: "PRIVATE", payout: "WINNER_TAKES_ALL", maxEntries: 8 },
  ]);
  const [h2h, fifty, tournament, priv] = plans.map((p) => p.competition);
  assert.equal(h2h.name, "Arsenal v Chelsea · Head-to-Head");
  assert.equal(h2h.maxEntries, 2);
  assert.equal(h2h.minEntries, 2, "a head-to-head must fill");
  assert.equal(h2h.prizePool, 0);
  assert.deepEqual(h2h.format, {
    template: "HEAD_TO_HEAD",
    payout: "WINNER_TAKES_ALL",
    pool: "GROWING",
    operatorSharePercent: 10,
    frozenAt: null,
  });
  assert.equal(h2h.unlisted, false);
  assert.equal(h2h.deadline, base.deadline);
  assert.equal(h2h.matchId, 4);
  assert.deepEqual(plans[0].prizes, [], "a growing pool's table waits for the deadline");

  assert.equal(fifty.minEntries, 20);
  assert.equal(fifty.prizePool, 90);
  assert.deepEqual(cents(plans[1].prizes), Array(10).fill(900));

  assert.equal(tournament.entryFee, 3);
  assert.equal(tournament.maxEntries, null);
  assert.equal(tournament.minEntries, null);
  assert.equal(tournament.format.operatorSharePercent, 15);

  assert.equal(priv.unlisted, true);
  assert.equal(priv.format.payout, "WINNER_TAKES_ALL");
  assert.equal(priv.minEntries, null, "a private contest runs with whoever entered");
});

Deno.test("[formats] competitionsFromTemplates names the template field it refuses", () => {
  const refusal = (templates: Parameters<typeof competitionsFromTemplates>[1]) => {
    try {
      competitionsFromTemplates(base, templates);
    } catch (err) {
      assert.ok(err instanceof InvalidInputError);
      return err.issues?.[0].path;
    }
    assert.fail("accepted");
  };
  assert.deepEqual(refusal([{ format: "HEAD_TO_HEAD", maxEntries: 3 }]), [
    "templates",
    0,
    "maxEntries",
  ]);
  assert.deepEqual(
    refusal([{ format: "TOURNAMENT" }, { format: "TOURNAMENT", pool: "GUARANTEED" }]),
    ["templates", 1, "prizePool"],
  );
  assert.deepEqual(refusal([{ format: "TOURNAMENT", operatorSharePercent: 60 }]), [
    "templates",
    0,
    "operatorSharePercent",
  ]);
  assert.deepEqual(refusal([{ format: "FIFTY_FIFTY", maxEntries: 1 }]), [
    "templates",
    0,
    "maxEntries",
  ]);
  assert.deepEqual(refusal([{ format: "FIFTY_FIFTY", maxEntries: 2 * MAX_PRIZE_PLACES + 1 }]), [
    "templates",
    0,
    "maxEntries",
  ]);
  assert.deepEqual(refusal([{ format: "PRIVATE", payout: "TOP_HALF" }]), [
    "templates",
    0,
    "maxEntries",
  ]);
  assert.deepEqual(refusal([]), ["templates"]);
});
