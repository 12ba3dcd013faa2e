import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createEntry, getEntry } from "@/lib/db/entries.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { awardPrizes, computeStandings } from "@/lib/db/standings.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { HOUR, makeCompetition, makeSquad, type Squad } from "./_fixtures.ts";

/** Four entries: A and B tie on top, C third, D last; entries made an hour apart. */
async function fourEntries(kv: Deno.Kv, competition: Competition, squad: Squad) {
  const [a0, a1, , a3, , a5] = squad.players.slice(0, 6);
  const [b0, b1, , b3, , b5] = squad.players.slice(6);
  const picks = {
    A: [a0.id, a1.id, a3.id, b3.id, b5.id],
    B: [b0.id, b1.id, b3.id, a3.id, a5.id],
    C: [a0.id, b1.id, a3.id, b3.id, a5.id],
    D: [b0.id, a1.id, b3.id, a3.id, b5.id],
  };
  const start = Date.now() - 4 * HOUR;
  const entries = [];
  for (const [i, [name, playerIds]] of Object.entries(picks).entries()) {
    const { entry } = await createEntry(kv, {
      competitionId: competition.id,
      email: `${name}@example.com`,
      teamName: `Team ${name}`,
      playerIds,
      stripePaymentId: `pi_${name}`,
    }, new Date(start + i * HOUR));
    entries.push(entry);
  }
  await savePerformances(kv, competition.id, [
    { playerId: a0.id, goals: 1, minutesPlayed: 90, bonus: 3 }, // GK: 2 + 6 + 3 = 11
    { playerId: b0.id, goals: 1, minutesPlayed: 90, bonus: 3 }, // 11
    { playerId: a1.id, minutesPlayed: 90, cleanSheet: true }, // DEF: 2 + 4 = 6
    { playerId: b1.id, minutesPlayed: 90, cleanSheet: true }, // 6
    { playerId: a5.id, redCard: true }, // FWD: -3
    { playerId: b5.id, ownGoals: 1 }, // FWD: -2
  ]);
  return entries;
}

Deno.test("[standings] rank by points with ties and split prizes", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const squad = await makeSquad(kv, competition.id);
  const [a, b, c, d] = await fourEntries(kv, competition, squad);
  await setPrizeStructure(kv, competition.id, [
    { position: 1, prize: 50 },
    { position: 2, prize: 30 },
    { position: 3, prize: 20 },
  ]);

  const rows = await computeStandings(kv, competition.id);
  // A = 11 + 6 - 2 = 15, B = 11 + 6 - 3 = 14, C = 11 + 6 - 3 = 14, D = 11 + 6 - 2 = 15
  assert.deepEqual(
    rows.map((r) => [r.teamName, r.points, r.rank, r.prize]),
    [
      ["Team A", 15, 1, 40],
      ["Team D", 15, 1, 40],
      ["Team B", 14, 3, 10],
      ["Team C", 14, 3, 10],
    ],
  );
  assert.deepEqual(rows.map((r) => r.entryId), [a.id, d.id, b.id, c.id]);
  assert.ok(rows.every((r) => r.prizeType === "CASH" && r.customPrizeDescription === null));
  kv.close();
});

Deno.test("[standings] awardPrizes writes points, rank and prize onto entries", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const squad = await makeSquad(kv, competition.id);
  const entries = await fourEntries(kv, competition, squad);
  await setPrizeStructure(kv, competition.id, [{ position: 1, prize: 100 }]);

  await awardPrizes(kv, competition.id);

  const saved = await Promise.all(entries.map((e) => getEntry(kv, e.id)));
  assert.deepEqual(
    saved.map((e) => [e?.teamName, e?.points, e?.rank, e?.prize]),
    [["Team A", 15, 1, 50], ["Team B", 14, 3, 0], ["Team C", 14, 3, 0], ["Team D", 15, 1, 50]],
  );
  kv.close();
});

Deno.test("[standings] NON_CASH prizes carry the description, not money", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, {
    prizeType: "NON_CASH",
    customPrizeDescription: "Stadium tour",
    currency: "GBP",
  });
  const squad = await makeSquad(kv, competition.id);
  const entries = await fourEntries(kv, competition, squad);
  await setPrizeStructure(kv, competition.id, [{ position: 1, prize: 100 }]);

  await updateCompetition(kv, competition.id, { status: "COMPLETED" });

  const saved = await Promise.all(entries.map((e) => getEntry(kv, e.id)));
  assert.deepEqual(
    saved.map((e) => [e?.teamName, e?.rank, e?.prize, e?.prizeType, e?.customPrizeDescription]),
    [
      ["Team A", 1, 0, "NON_CASH", "Stadium tour"],
      ["Team B", 3, 0, "NON_CASH", null],
      ["Team C", 3, 0, "NON_CASH", null],
      ["Team D", 1, 0, "NON_CASH", "Stadium tour"],
    ],
  );
  kv.close();
});

Deno.test("[standings] an empty competition has no rows", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  assert.deepEqual(await computeStandings(kv, competition.id), []);
  assert.deepEqual(await awardPrizes(kv, competition.id), []);
  kv.close();
});
