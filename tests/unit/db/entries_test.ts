import assert from "node:assert/strict";
import {
  countPaidEntries,
  createEntry,
  type EntryInput,
  getEntry,
  getEntryByPayment,
  getEntryByTeamId,
  listEntriesByCompetition,
} from "@/lib/db/entries.ts";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { getLiveVersion } from "@/lib/store/live.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { HOUR, makeCompetition, makeSquad } from "./_fixtures.ts";

function entryInput(cid: number, playerIds: number[], n: number | string): EntryInput {
  return {
    competitionId: cid,
    email: `fan${n}@example.com`,
    teamName: `Team ${n}`,
    playerIds,
    stripePaymentId: `pi_${n}`,
  };
}

Deno.test("[entries] creates an entry with its indexes, counter and live bump", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { validPick } = await makeSquad(kv, competition.id);
  const liveBefore = await getLiveVersion(kv, competition.id);

  const { entry, created } = await createEntry(kv, entryInput(competition.id, validPick, 1));

  assert.equal(created, true);
  assert.match(entry.teamId, /^FFT-[A-HJ-NP-Z2-9]{8}$/);
  assert.deepEqual(entry.playerIds, validPick);
  assert.equal(entry.points, 0);
  assert.equal(entry.rank, null);
  assert.equal(entry.prizeType, "CASH");
  assert.deepEqual(await getEntry(kv, entry.id), entry);
  assert.deepEqual(await getEntryByTeamId(kv, entry.teamId), entry);
  assert.deepEqual(await getEntryByPayment(kv, "pi_1"), entry);
  assert.deepEqual(await listEntriesByCompetition(kv, competition.id), [entry]);
  assert.equal(await countPaidEntries(kv, competition.id), 1);
  assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 1);
  assert.notEqual(await getLiveVersion(kv, competition.id), liveBefore);
  assert.equal(await getEntryByTeamId(kv, "FFT-NOPE2345"), null);
  kv.close();
});

Deno.test("[entries] is idempotent per payment", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { validPick } = await makeSquad(kv, competition.id);

  await t.step("the same payment twice returns the same entry", async () => {
    const first = await createEntry(kv, entryInput(competition.id, validPick, "same"));
    const second = await createEntry(kv, entryInput(competition.id, validPick, "same"));
    assert.equal(first.created, true);
    assert.equal(second.created, false);
    assert.deepEqual(second.entry, first.entry);
  });

  await t.step("the same payment in parallel makes one entry", async () => {
    const results = await Promise.all(
      Array.from(
        { length: 8 },
        () => createEntry(kv, entryInput(competition.id, validPick, "par")),
      ),
    );
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.equal(new Set(results.map((r) => r.entry.id)).size, 1);
  });

  await t.step("a repeated payment is returned even after the competition closed", async () => {
    await updateCompetition(kv, competition.id, { status: "LIVE" });
    const again = await createEntry(kv, entryInput(competition.id, validPick, "same"));
    assert.equal(again.created, false);
  });

  assert.equal(await countPaidEntries(kv, competition.id), 2);
  assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 2);
  kv.close();
});

Deno.test("[entries] never exceeds maxEntries with 20 parallel creations", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { maxEntries: 10 });
  const { validPick } = await makeSquad(kv, competition.id);

  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => createEntry(kv, entryInput(competition.id, validPick, i))),
  );

  const created = results.filter((r) => r.status === "fulfilled");
  const refused = results.filter((r) => r.status === "rejected");
  assert.equal(created.length, 10);
  assert.equal(refused.length, 10);
  for (const r of refused) {
    assert.ok(r.reason instanceof ConflictError);
    assert.equal(r.reason.message, "This competition is full.");
  }
  assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 10);
  assert.equal(await countPaidEntries(kv, competition.id), 10);
  const teamIds = (await listEntriesByCompetition(kv, competition.id)).map((e) => e.teamId);
  assert.equal(new Set(teamIds).size, 10);
  kv.close();
});

Deno.test("[entries] refuses closed, late and unknown competitions", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { validPick } = await makeSquad(kv, competition.id);

  await t.step("deadline passed", async () => {
    const late = new Date(Date.now() + 25 * HOUR);
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, validPick, "late"), late),
      (err) => err instanceof ConflictError && err.message === "The entry deadline has passed.",
    );
  });

  await t.step("not UPCOMING", async () => {
    await updateCompetition(kv, competition.id, { status: "LIVE" });
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, validPick, "live")),
      (err) =>
        err instanceof ConflictError && err.message === "This competition is closed for entries.",
    );
  });

  await t.step("unknown competition", async () => {
    await assert.rejects(
      createEntry(kv, entryInput(999, validPick, "ghost")),
      NotFoundError,
    );
  });

  assert.equal(await countPaidEntries(kv, competition.id), 0);
  kv.close();
});

Deno.test("[entries] refuses teams that break the rules", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { salaryCap: 24000 });
  const { players, validPick, teams } = await makeSquad(kv, competition.id);

  await t.step("four players", async () => {
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, validPick.slice(0, 4), "four")),
      (err) =>
        err instanceof InvalidInputError && err.message === "Please select exactly 5 players.",
    );
  });

  await t.step("salary over the cap", async () => {
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, validPick, "cap")),
      (err) =>
        err instanceof InvalidInputError &&
        err.message ===
          "Your team salary ($25,000) exceeds the salary cap ($24,000). Please adjust your team.",
    );
  });

  await t.step("four from one team", async () => {
    await updateCompetition(kv, competition.id, { salaryCap: 50000 });
    const alpha = players.filter((p) => p.teamId === teams[0].id);
    const pick = [alpha[0].id, alpha[1].id, alpha[3].id, alpha[5].id, players[9].id];
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, pick, "stack")),
      (err) =>
        err instanceof InvalidInputError &&
        err.message === "You can only select a maximum of 3 players from the same team." &&
        err.issues?.[0].path[0] === "playerIds",
    );
  });

  await t.step("a player outside the competition", async () => {
    const outsider = await createPlayer(kv, { name: "Out Sider", position: "MID", teamId: 1 });
    const pick = [...validPick.slice(0, 4), outsider.id];
    await assert.rejects(
      createEntry(kv, entryInput(competition.id, pick, "outsider")),
      (err) =>
        err instanceof InvalidInputError &&
        err.message === "Some selected players are not part of this competition.",
    );
  });

  assert.equal(await countPaidEntries(kv, competition.id), 0);
  kv.close();
});
