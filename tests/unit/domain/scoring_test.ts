import assert from "node:assert/strict";
import {
  applyEvent,
  type BreakdownKey,
  emptyStats,
  EVENT_LABELS,
  eventLabel,
  normaliseBonus,
  pointsBreakdown,
  scorePerformance,
  SCORING,
  seasonPoints,
} from "@/lib/domain/scoring.ts";
import {
  EVENT_TYPES,
  type PerformanceStats,
  type Position,
  POSITIONS,
} from "@/lib/domain/types.ts";

const stats = (over: Partial<PerformanceStats>): PerformanceStats => ({ ...emptyStats(), ...over });

/** Points of one category for a position, with everything else empty. */
function lineOf(position: Position, over: Partial<PerformanceStats>, key: BreakdownKey) {
  return scorePerformance(position, stats(over)).lines.find((l) => l.key === key);
}

const sumLines = (position: Position, s: PerformanceStats) => {
  const { totalPoints, lines } = scorePerformance(position, s);
  return { totalPoints, sum: Math.round(lines.reduce((a, l) => a + l.points, 0) * 10) / 10 };
};

Deno.test("[scoring] the points table", () => {
  const common = {
    played: 1,
    played60: 2,
    assist: 3,
    penaltyMiss: -2,
    ownGoal: -2,
    yellowCard: -1,
    redCard: -3,
  };
  assert.deepEqual(SCORING.GK, {
    ...common,
    goal: 6,
    cleanSheet: 4,
    save: 0.5,
    penaltySave: 5,
    goalsConcededPer2: -1,
  });
  assert.deepEqual(SCORING.DEF, {
    ...common,
    goal: 6,
    cleanSheet: 4,
    save: 0,
    penaltySave: 0,
    goalsConcededPer2: -1,
  });
  assert.deepEqual(SCORING.MID, {
    ...common,
    goal: 5,
    cleanSheet: 1,
    save: 0,
    penaltySave: 0,
    goalsConcededPer2: 0,
  });
  assert.deepEqual(SCORING.FWD, {
    ...common,
    goal: 4,
    cleanSheet: 0,
    save: 0,
    penaltySave: 0,
    goalsConcededPer2: 0,
  });
});

Deno.test("[scoring] an empty performance scores 0 with no lines", () => {
  for (const pos of POSITIONS) {
    assert.deepEqual(scorePerformance(pos, emptyStats()), { totalPoints: 0, lines: [] });
  }
});

Deno.test("[scoring] each position's line values", async (t) => {
  const expected: Record<Position, Record<string, number>> = {
    GK: { goal: 6, cleanSheet: 4, save: 0.5, penaltySave: 5, conceded: -1 },
    DEF: { goal: 6, cleanSheet: 4, save: 0, penaltySave: 0, conceded: -1 },
    MID: { goal: 5, cleanSheet: 1, save: 0, penaltySave: 0, conceded: 0 },
    FWD: { goal: 4, cleanSheet: 0, save: 0, penaltySave: 0, conceded: 0 },
  };
  for (const pos of POSITIONS) {
    const e = expected[pos];
    await t.step(`${pos} minutes: 0 → none, 1–59 → 1, 60+ → 2`, () => {
      assert.equal(lineOf(pos, { minutesPlayed: 0 }, "minutes"), undefined);
      assert.deepEqual(lineOf(pos, { minutesPlayed: 1 }, "minutes"), {
        key: "minutes",
        label: "Played 1-59 min",
        count: 1,
        value: 1,
        points: 1,
      });
      assert.equal(lineOf(pos, { minutesPlayed: 59 }, "minutes")?.points, 1);
      assert.deepEqual(lineOf(pos, { minutesPlayed: 60 }, "minutes"), {
        key: "minutes",
        label: "Played 60+ min",
        count: 1,
        value: 2,
        points: 2,
      });
      assert.equal(lineOf(pos, { minutesPlayed: 90 }, "minutes")?.points, 2);
    });
    await t.step(`${pos} goals ×${e.goal}`, () => {
      assert.deepEqual(lineOf(pos, { goals: 2 }, "goals"), {
        key: "goals",
        label: "Goals",
        count: 2,
        value: e.goal,
        points: 2 * e.goal,
      });
    });
    await t.step(`${pos} assists ×3`, () => {
      assert.deepEqual(lineOf(pos, { assists: 3 }, "assists"), {
        key: "assists",
        label: "Assists",
        count: 3,
        value: 3,
        points: 9,
      });
    });
    await t.step(`${pos} clean sheet ${e.cleanSheet}`, () => {
      const line = lineOf(pos, { cleanSheet: true }, "cleanSheets");
      if (e.cleanSheet === 0) return assert.equal(line, undefined);
      assert.deepEqual(line, {
        key: "cleanSheets",
        label: "Clean sheet",
        count: 1,
        value: e.cleanSheet,
        points: e.cleanSheet,
      });
    });
    await t.step(`${pos} saves ×${e.save}`, () => {
      const line = lineOf(pos, { saves: 3 }, "saves");
      if (e.save === 0) return assert.equal(line, undefined);
      assert.deepEqual(line, { key: "saves", label: "Saves", count: 3, value: 0.5, points: 1.5 });
    });
    await t.step(`${pos} penalty saves ×${e.penaltySave}`, () => {
      const line = lineOf(pos, { penaltySaves: 2 }, "penaltySaves");
      if (e.penaltySave === 0) return assert.equal(line, undefined);
      assert.deepEqual(line, {
        key: "penaltySaves",
        label: "Penalty saves",
        count: 2,
        value: 5,
        points: 10,
      });
    });
    await t.step(`${pos} penalty misses ×-2`, () => {
      assert.deepEqual(lineOf(pos, { penaltyMisses: 1 }, "penaltyMisses"), {
        key: "penaltyMisses",
        label: "Penalty misses",
        count: 1,
        value: -2,
        points: -2,
      });
    });
    await t.step(`${pos} own goals ×-2`, () => {
      assert.deepEqual(lineOf(pos, { ownGoals: 2 }, "ownGoals"), {
        key: "ownGoals",
        label: "Own goals",
        count: 2,
        value: -2,
        points: -4,
      });
    });
    await t.step(`${pos} yellow ×-1, red -3`, () => {
      assert.deepEqual(lineOf(pos, { yellowCards: 2 }, "yellowCards"), {
        key: "yellowCards",
        label: "Yellow cards",
        count: 2,
        value: -1,
        points: -2,
      });
      assert.deepEqual(lineOf(pos, { redCard: true }, "redCards"), {
        key: "redCards",
        label: "Red card",
        count: 1,
        value: -3,
        points: -3,
      });
    });
    await t.step(`${pos} goals conceded: ${e.conceded} per 2`, () => {
      assert.equal(lineOf(pos, { goalsConceded: 1 }, "goalsConceded"), undefined);
      const line = lineOf(pos, { goalsConceded: 5 }, "goalsConceded");
      if (e.conceded === 0) return assert.equal(line, undefined);
      assert.deepEqual(line, {
        key: "goalsConceded",
        label: "Goals conceded (per 2)",
        count: 2,
        value: -1,
        points: -2,
      });
    });
    await t.step(`${pos} bonus 3`, () => {
      assert.deepEqual(lineOf(pos, { bonus: 3 }, "bonus"), {
        key: "bonus",
        label: "Bonus",
        count: 1,
        value: 3,
        points: 3,
      });
      assert.equal(lineOf(pos, { bonus: 1 }, "bonus")?.points, 3);
      assert.equal(lineOf(pos, { bonus: 0 }, "bonus"), undefined);
    });
  }
});

Deno.test("[scoring] lines sum exactly to the total", async (t) => {
  await t.step("a goalkeeper with an odd number of saves (half points)", () => {
    const s = stats({ minutesPlayed: 90, saves: 7, cleanSheet: true, penaltySaves: 1 });
    const r = scorePerformance("GK", s);
    assert.equal(r.totalPoints, 2 + 3.5 + 4 + 5);
    assert.deepEqual(sumLines("GK", s), { totalPoints: 14.5, sum: 14.5 });
  });
  await t.step("many 0.5 steps do not drift", () => {
    for (let saves = 0; saves <= 41; saves++) {
      const r = scorePerformance("GK", stats({ saves, minutesPlayed: 45 }));
      assert.equal(r.totalPoints, (saves ? saves * 0.5 : 0) + 1);
      assert.equal(r.lines.reduce((a, l) => a + l.points, 0), r.totalPoints);
    }
  });
  await t.step("a negative total", () => {
    const s = stats({
      minutesPlayed: 30,
      ownGoals: 2,
      redCard: true,
      yellowCards: 1,
      penaltyMisses: 1,
      goalsConceded: 4,
    });
    const r = scorePerformance("DEF", s);
    assert.equal(r.totalPoints, 1 - 4 - 3 - 1 - 2 - 2);
    assert.deepEqual(sumLines("DEF", s), { totalPoints: -11, sum: -11 });
    assert.deepEqual(r.lines.map((l) => l.key), [
      "minutes",
      "penaltyMisses",
      "ownGoals",
      "yellowCards",
      "redCards",
      "goalsConceded",
    ]);
  });
  await t.step("a full match for each position", () => {
    const s = stats({
      minutesPlayed: 90,
      goals: 2,
      assists: 1,
      cleanSheet: true,
      saves: 5,
      penaltySaves: 1,
      penaltyMisses: 1,
      ownGoals: 1,
      yellowCards: 1,
      redCard: false,
      goalsConceded: 3,
      bonus: 3,
    });
    const expected: Record<Position, number> = {
      GK: 2 + 12 + 3 + 4 + 2.5 + 5 - 2 - 2 - 1 - 1 + 3,
      DEF: 2 + 12 + 3 + 4 - 2 - 2 - 1 - 1 + 3,
      MID: 2 + 10 + 3 + 1 - 2 - 2 - 1 + 3,
      FWD: 2 + 8 + 3 - 2 - 2 - 1 + 3,
    };
    for (const pos of POSITIONS) {
      const { totalPoints, sum } = sumLines(pos, s);
      assert.equal(totalPoints, expected[pos], pos);
      assert.equal(sum, totalPoints, pos);
    }
  });
  await t.step("only non-zero lines are listed", () => {
    const r = scorePerformance(
      "FWD",
      stats({ cleanSheet: true, saves: 10, penaltySaves: 2, goalsConceded: 6 }),
    );
    assert.deepEqual(r, { totalPoints: 0, lines: [] });
  });
  await t.step("negative or fractional counts are read as whole, at least 0", () => {
    const r = scorePerformance("MID", stats({ goals: -2, assists: 1.7, minutesPlayed: -5 }));
    assert.deepEqual(r.lines.map((l) => [l.key, l.count, l.points]), [["assists", 1, 3]]);
  });
});

Deno.test("[scoring] pointsBreakdown holds points per category", async (t) => {
  await t.step("fields are points, not counts", () => {
    const s = stats({
      minutesPlayed: 90,
      goals: 1,
      assists: 2,
      saves: 3,
      yellowCards: 2,
      redCard: true,
      cleanSheet: true,
      penaltySaves: 1,
      penaltyMisses: 1,
      ownGoals: 1,
      goalsConceded: 2,
      bonus: 3,
    });
    assert.deepEqual(pointsBreakdown("GK", s), {
      totalPoints: 2 + 6 + 6 + 1.5 - 2 - 3 + 4 + 5 - 2 - 2 - 1 + 3,
      goals: 6,
      assists: 6,
      saves: 1.5,
      yellowCards: -2,
      redCards: -3,
      cleanSheets: 4,
      penaltySaves: 5,
      penaltyMisses: -2,
      ownGoals: -2,
    });
  });
  await t.step("minutes, goals conceded and bonus are in the total only", () => {
    const b = pointsBreakdown("DEF", stats({ minutesPlayed: 70, goalsConceded: 4, bonus: 3 }));
    assert.deepEqual(b, {
      totalPoints: 2 - 2 + 3,
      goals: 0,
      assists: 0,
      saves: 0,
      yellowCards: 0,
      redCards: 0,
      cleanSheets: 0,
      penaltySaves: 0,
      penaltyMisses: 0,
      ownGoals: 0,
    });
  });
  await t.step("saves score nothing outside goal", () => {
    assert.equal(pointsBreakdown("DEF", stats({ saves: 4 })).saves, 0);
  });
});

Deno.test("[scoring] normaliseBonus: positive → 3, else 0", () => {
  assert.equal(normaliseBonus(3), 3);
  assert.equal(normaliseBonus(1), 3);
  assert.equal(normaliseBonus(0.5), 3);
  assert.equal(normaliseBonus(10), 3);
  assert.equal(normaliseBonus(0), 0);
  assert.equal(normaliseBonus(-3), 0);
  assert.equal(normaliseBonus(NaN), 0);
});

Deno.test("[scoring] emptyStats is all zero and fresh each time", () => {
  const a = emptyStats();
  assert.deepEqual(a, {
    goals: 0,
    assists: 0,
    cleanSheet: false,
    yellowCards: 0,
    redCard: false,
    saves: 0,
    penaltySaves: 0,
    penaltyMisses: 0,
    ownGoals: 0,
    minutesPlayed: 0,
    goalsConceded: 0,
    bonus: 0,
  });
  a.goals = 5;
  assert.equal(emptyStats().goals, 0);
});

Deno.test("[scoring] applyEvent records and reverses game events", async (t) => {
  const counted = {
    GOAL: "goals",
    ASSIST: "assists",
    SAVE: "saves",
    PENALTY_SAVE: "penaltySaves",
    PENALTY_MISS: "penaltyMisses",
    OWN_GOAL: "ownGoals",
  } as const;
  for (const [type, field] of Object.entries(counted)) {
    await t.step(`${type} → ${field} +1, reversal round trip, never below 0`, () => {
      const base = stats({ minutesPlayed: 90, [field]: 1 });
      const up = applyEvent(base, type as keyof typeof counted, 1);
      assert.equal(up[field], 2);
      assert.deepEqual({ ...up, [field]: 1 }, base, "only that field changes");
      assert.deepEqual(applyEvent(up, type as keyof typeof counted, -1), base);
      assert.equal(applyEvent(emptyStats(), type as keyof typeof counted, -1)[field], 0);
    });
  }
  await t.step("YELLOW_CARD adds up to 2 and reverses", () => {
    const one = applyEvent(emptyStats(), "YELLOW_CARD", 1);
    assert.equal(one.yellowCards, 1);
    const two = applyEvent(one, "YELLOW_CARD", 1);
    assert.equal(two.yellowCards, 2);
    assert.equal(applyEvent(two, "YELLOW_CARD", 1).yellowCards, 2, "capped at 2");
    assert.deepEqual(applyEvent(two, "YELLOW_CARD", -1), one);
    assert.deepEqual(applyEvent(one, "YELLOW_CARD", -1), emptyStats());
    assert.equal(applyEvent(emptyStats(), "YELLOW_CARD", -1).yellowCards, 0);
  });
  await t.step("RED_CARD sets and clears the flag", () => {
    const red = applyEvent(emptyStats(), "RED_CARD", 1);
    assert.equal(red.redCard, true);
    assert.equal(applyEvent(red, "RED_CARD", 1).redCard, true);
    assert.deepEqual(applyEvent(red, "RED_CARD", -1), emptyStats());
  });
  await t.step("CLEAN_SHEET sets and clears the flag", () => {
    const cs = applyEvent(emptyStats(), "CLEAN_SHEET", 1);
    assert.equal(cs.cleanSheet, true);
    assert.deepEqual(applyEvent(cs, "CLEAN_SHEET", -1), emptyStats());
  });
  await t.step("every event type round-trips from a mid-game state", () => {
    const base = stats({
      minutesPlayed: 60,
      goals: 1,
      assists: 1,
      saves: 2,
      yellowCards: 1,
      goalsConceded: 1,
    });
    for (const type of EVENT_TYPES) {
      assert.deepEqual(applyEvent(applyEvent(base, type, 1), type, -1), base, type);
    }
  });
  await t.step("returns a new object and leaves the input alone", () => {
    const base = emptyStats();
    const next = applyEvent(base, "GOAL", 1);
    assert.notEqual(next, base);
    assert.equal(base.goals, 0);
  });
  await t.step("an unknown event type changes nothing", () => {
    const base = stats({ goals: 1 });
    // deno-lint-ignore no-explicit-any
    assert.deepEqual(applyEvent(base, "SUBSTITUTION" as any, 1), base);
  });
  await t.step("a recorded goal moves the score", () => {
    const before = scorePerformance("FWD", stats({ minutesPlayed: 90 })).totalPoints;
    const after =
      scorePerformance("FWD", applyEvent(stats({ minutesPlayed: 90 }), "GOAL", 1)).totalPoints;
    assert.equal(after - before, 4);
  });
});

Deno.test("[scoring] event labels", async (t) => {
  await t.step("every event type has its label", () => {
    assert.deepEqual(EVENT_LABELS, {
      GOAL: "Goal",
      ASSIST: "Assist",
      SAVE: "Save",
      YELLOW_CARD: "Yellow Card",
      RED_CARD: "Red Card",
      CLEAN_SHEET: "Clean Sheet",
      PENALTY_SAVE: "Penalty Save",
      PENALTY_MISS: "Penalty Miss",
      OWN_GOAL: "Own Goal",
    });
    for (const type of EVENT_TYPES) assert.equal(eventLabel(type), EVENT_LABELS[type]);
  });
  await t.step("anything else is 'Event'", () => {
    for (const other of ["SUBSTITUTION", "", "goal", "toString", "__proto__"]) {
      assert.equal(eventLabel(other), "Event", other);
    }
  });
});

Deno.test("[scoring] season points count goals, assists and clean sheets at the position's values", () => {
  const mid = seasonPoints("MID", { goals: 2, assists: 1, cleanSheets: 3 });
  assert.equal(mid.totalPoints, 2 * 5 + 1 * 3 + 3 * 1);
  assert.deepEqual(mid.lines.map((l) => [l.label, l.count, l.points]), [
    ["Goals", 2, 10],
    ["Assists", 1, 3],
    ["Clean sheets", 3, 3],
  ]);
  assert.equal(seasonPoints("FWD", { goals: 1, assists: 0, cleanSheets: 9 }).totalPoints, 4);
  assert.equal(seasonPoints("GK", { goals: 0, assists: 0, cleanSheets: 2 }).totalPoints, 8);
});
