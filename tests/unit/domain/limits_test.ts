import assert from "node:assert/strict";
import {
  breakEnd,
  exclusionEnd,
  NO_SETTINGS,
  type PlayFacts,
  playProblem,
  setLimit,
  type Spend,
} from "@/lib/domain/limits.ts";

const NOW = new Date("2026-11-28T16:00:00Z");
const H = 3_600_000;
const at = (hoursAgo: number, cents: number): Spend => [NOW.getTime() - hoursAgo * H, cents];
const facts = (over: Partial<PlayFacts>): PlayFacts => ({
  settings: null,
  exclusion: null,
  spends: [],
  ...over,
});
const message = (f: PlayFacts, cents: number, currency: string, now = NOW) =>
  playProblem(f, cents, currency, now)?.message ?? null;

Deno.test("[limits] lowering applies at once; raising or removing after 24 hours", async (t) => {
  const twenty = setLimit(NO_SETTINGS, "daily", 2000, NOW);
  await t.step("a first limit is a lowering", () => {
    assert.deepEqual(twenty.limits.daily, { cents: 2000 });
  });
  const raised = setLimit(twenty, "daily", 5000, NOW);
  await t.step("a raise waits a day", () => {
    assert.deepEqual(raised.limits.daily, {
      cents: 2000,
      pending: { cents: 5000, from: "2026-11-29T16:00:00.000Z" },
    });
    const before = new Date(NOW.getTime() + 23 * H);
    const spends: Spend[] = [[before.getTime() - H, 2000]];
    assert.match(message(facts({ settings: raised, spends }), 1000, "usd", before)!, /\$20\.00/);
  });
  await t.step("and then applies", () => {
    const after = new Date(NOW.getTime() + 24 * H);
    const spends: Spend[] = [[after.getTime() - H, 2000]];
    assert.equal(message(facts({ settings: raised, spends }), 1000, "usd", after), null);
  });
  await t.step("removing a limit waits a day too", () => {
    assert.equal(setLimit(twenty, "daily", null, NOW).limits.daily!.pending!.cents, null);
  });
  await t.step("lowering drops a pending raise", () => {
    assert.deepEqual(setLimit(raised, "daily", 1500, NOW).limits.daily, { cents: 1500 });
  });
});

Deno.test("[limits] the refusal names the limit and when it resets", async (t) => {
  const settings = setLimit(NO_SETTINGS, "daily", 2000, NOW);
  await t.step("reset when the oldest spend leaves the day", () => {
    const p = playProblem(
      facts({ settings, spends: [at(22, 1000), at(2, 1000)] }),
      1000,
      "usd",
      NOW,
    );
    assert.equal(p?.message, "Your daily limit of $20.00 is reached until 18:00 UTC.");
    assert.equal(p?.until, "2026-11-28T18:00:00.000Z");
  });
  await t.step("a reset tomorrow names the day", () => {
    assert.equal(
      message(facts({ settings, spends: [at(1, 2000)] }), 500, "gbp"),
      "Your daily limit of £20.00 is reached until Sun 29 Nov, 15:00 UTC.",
    );
  });
  await t.step("spend older than the window is not counted", () => {
    assert.equal(message(facts({ settings, spends: [at(25, 2000)] }), 2000, "usd"), null);
  });
  await t.step("weekly and monthly windows", () => {
    const weekly = setLimit(NO_SETTINGS, "weekly", 3000, NOW);
    assert.match(
      message(facts({ settings: weekly, spends: [at(24 * 6, 2500)] }), 1000, "usd")!,
      /^Your weekly limit of \$30\.00/,
    );
    const monthly = setLimit(NO_SETTINGS, "monthly", 3000, NOW);
    assert.match(
      message(facts({ settings: monthly, spends: [at(24 * 29, 2500)] }), 1000, "usd")!,
      /^Your monthly limit/,
    );
    assert.equal(
      message(facts({ settings: monthly, spends: [at(24 * 31, 2500)] }), 1000, "usd"),
      null,
    );
  });
});

Deno.test("[limits] breaks and exclusions", async (t) => {
  await t.step("a break refuses until it ends, and never shortens", () => {
    const settings = { ...NO_SETTINGS, breakUntil: breakEnd(NO_SETTINGS, 48, NOW) };
    assert.equal(settings.breakUntil, "2026-11-30T16:00:00.000Z");
    assert.equal(breakEnd(settings, 24, NOW), settings.breakUntil);
    assert.equal(
      message(facts({ settings }), 100, "usd"),
      "You are taking a break from play until Mon 30 Nov, 16:00 UTC.",
    );
    assert.equal(message(facts({ settings }), 100, "usd", new Date("2026-11-30T16:00:00Z")), null);
  });
  await t.step("exclusions last 6 months, 1 year or 5 years", () => {
    assert.equal(exclusionEnd("6m", NOW), "2027-05-28T16:00:00.000Z");
    assert.equal(exclusionEnd("1y", NOW), "2027-11-28T16:00:00.000Z");
    assert.equal(exclusionEnd("5y", NOW), "2031-11-28T16:00:00.000Z");
    const exclusion = { until: exclusionEnd("5y", NOW), source: "self" as const, since: "" };
    assert.equal(playProblem(facts({ exclusion }), 100, "usd", NOW)!.until, exclusion.until);
  });
});
