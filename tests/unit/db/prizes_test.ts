import assert from "node:assert/strict";
import { listPrizes, setPrizeStructure } from "@/lib/db/prizes.ts";
import { InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { makeCompetition } from "./_fixtures.ts";

Deno.test("[prizes] set replaces the whole structure and copies the prize type", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, {
    prizeType: "NON_CASH",
    customPrizeDescription: "A signed ball",
  });
  await setPrizeStructure(kv, competition.id, [
    { position: 3, prize: 20 },
    { position: 1, prize: 50 },
    { position: 2, prize: 30 },
  ]);
  const saved = await setPrizeStructure(kv, competition.id, [
    { position: 2, prize: 40.004 },
    { position: 1, prize: 60 },
  ]);
  const list = await listPrizes(kv, competition.id);
  assert.deepEqual(list, saved);
  assert.deepEqual(list.map((p) => [p.position, p.prize]), [[1, 60], [2, 40]]);
  assert.ok(list.every((p) => p.prizeType === "NON_CASH"));
  assert.ok(list.every((p) => p.customPrizeDescription === "A signed ball"));
  assert.ok(list.every((p) => p.competitionId === competition.id && p.id > 0));
  kv.close();
});

Deno.test("[prizes] invalid structures are refused", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const cases = [
    [[], "At least one prize position is required"],
    [[{ position: 0, prize: 5 }], "Position must be a positive integer"],
    [[{ position: 1.5, prize: 5 }], "Position must be a positive integer"],
    [[{ position: 1, prize: 0 }], "Prize amount must be positive"],
    [[{ position: 1, prize: 5 }, { position: 1, prize: 5 }], "Prize positions must be unique"],
  ] as const;
  for (const [rows, message] of cases) {
    await t.step(message, async () => {
      await assert.rejects(
        setPrizeStructure(kv, competition.id, [...rows]),
        (err) => err instanceof InvalidInputError && err.message === message,
      );
    });
  }
  await assert.rejects(setPrizeStructure(kv, 9, [{ position: 1, prize: 1 }]), NotFoundError);
  assert.deepEqual(await listPrizes(kv, competition.id), []);
  kv.close();
});
