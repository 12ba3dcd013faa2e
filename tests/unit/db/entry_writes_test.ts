import assert from "node:assert/strict";
import {
  removeCompetitionPlayers,
  setCompetitionPlayerSalary,
} from "@/lib/db/competition_players.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import {
  createEntry,
  type EntryInput,
  InvalidPicksError,
  listEntriesByCompetition,
} from "@/lib/db/entries.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { makeCompetition, makeSquad } from "./_fixtures.ts";

function entryInput(cid: number, playerIds: number[], n: number | string): EntryInput {
  return {
    competitionId: cid,
    email: `fan${n}@example.com`,
    teamName: `Team ${n}`,
    playerIds,
    stripePaymentId: `pi_race_${n}`,
  };
}

/** The store, where `hook` runs (and is awaited) before each atomic commit made through this handle. */
function beforeEachCommit(kv: Deno.Kv, hook: () => Promise<unknown>): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            await hook();
            return commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The store, where `change` runs (on the real store) just before the first atomic commit made
 * through this handle: what happens between an entry's validation and its commit.
 */
function changeBeforeFirstCommit(kv: Deno.Kv, change: () => Promise<unknown>): Deno.Kv {
  let armed = true;
  return beforeEachCommit(kv, async () => {
    if (armed) {
      armed = false;
      await change();
    }
  });
}

Deno.test("[entries] a player removed between validation and commit makes no entry", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv);
    const { validPick } = await makeSquad(kv, competition.id);
    const racing = changeBeforeFirstCommit(
      kv,
      () => removeCompetitionPlayers(kv, competition.id, [validPick[0]]),
    );
    await assert.rejects(
      () => createEntry(racing, entryInput(competition.id, validPick, 1)),
      InvalidPicksError,
      "Some selected players are not part of this competition.",
    );
    assert.deepEqual(await listEntriesByCompetition(kv, competition.id), []);
    assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 0);
  } finally {
    kv.close();
  }
});

Deno.test("[entries] a salary raised over the cap before the commit makes no entry", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv, { salaryCap: 25000 });
    const { validPick } = await makeSquad(kv, competition.id);
    const racing = changeBeforeFirstCommit(
      kv,
      // Salaries are per competition : the price that races is the competition's.
      () => setCompetitionPlayerSalary(kv, competition.id, validPick[1], 9000),
    );
    await assert.rejects(
      () => createEntry(racing, entryInput(competition.id, validPick, 2)),
      InvalidPicksError,
    );
    assert.deepEqual(await listEntriesByCompetition(kv, competition.id), []);
  } finally {
    kv.close();
  }
});

Deno.test("[entries] 256 concurrent entries: all made, none told to try again", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv);
    const { validPick } = await makeSquad(kv, competition.id);
    const results = await Promise.allSettled(
      Array.from(
        { length: 256 },
        (_, n) => createEntry(kv, entryInput(competition.id, validPick, n)),
      ),
    );
    const refused = results.filter((r) => r.status === "rejected");
    assert.deepEqual(refused, []);
    const entries = await listEntriesByCompetition(kv, competition.id);
    assert.equal(entries.length, 256);
    assert.equal(new Set(entries.map((e) => e.stripePaymentId)).size, 256);
    assert.equal(new Set(entries.map((e) => e.teamId)).size, 256);
    // Ids follow the commit order with no gap, so readers can catch up by the last id seen.
    const ids = entries.map((e) => e.id);
    assert.deepEqual(ids, Array.from({ length: 256 }, (_, i) => ids[0] + i));
    assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 256);
  } finally {
    kv.close();
  }
});

Deno.test("[entries] 100 concurrent entries into maxEntries 40: exactly 40 made", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv, { maxEntries: 40 });
    const { validPick } = await makeSquad(kv, competition.id);
    const results = await Promise.allSettled(
      Array.from(
        { length: 100 },
        (_, n) => createEntry(kv, entryInput(competition.id, validPick, n)),
      ),
    );
    const made = results.filter((r) => r.status === "fulfilled");
    const full = results.filter((r) =>
      r.status === "rejected" && r.reason instanceof ConflictError &&
      r.reason.message === "This competition is full."
    );
    assert.equal(made.length, 40);
    assert.equal(full.length, 60);
    assert.equal((await listEntriesByCompetition(kv, competition.id)).length, 40);
    assert.equal((await getCompetition(kv, competition.id))?.currentEntries, 40);
  } finally {
    kv.close();
  }
});

Deno.test("[entries] the same payment in one batch makes one entry", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv);
    const { validPick } = await makeSquad(kv, competition.id);
    const input = entryInput(competition.id, validPick, "twice");
    const results = await Promise.all([1, 2, 3, 4].map(() => createEntry(kv, input)));
    assert.deepEqual(results.map((r) => r.created).sort(), [false, false, false, true]);
    assert.equal(new Set(results.map((r) => r.entry.teamId)).size, 1);
    assert.equal((await listEntriesByCompetition(kv, competition.id)).length, 1);
  } finally {
    kv.close();
  }
});

Deno.test("[entries] a buyer refused as full finds the competition full in the store", async () => {
  // The refund of a refused payment re-reads the competition: a refusal must not reach the buyer
  // before the entries that filled the competition are committed.
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv, { maxEntries: 3 });
    const { validPick } = await makeSquad(kv, competition.id);
    const slow = beforeEachCommit(kv, () => new Promise((done) => setTimeout(done, 50)));
    const seenWhenRefused: (number | undefined)[] = [];
    await Promise.all(
      Array.from(
        { length: 10 },
        (_, n) =>
          createEntry(slow, entryInput(competition.id, validPick, n)).catch(async (err) => {
            assert.ok(err instanceof ConflictError);
            seenWhenRefused.push((await getCompetition(kv, competition.id))?.currentEntries);
          }),
      ),
    );
    assert.deepEqual(seenWhenRefused, Array(7).fill(3));
  } finally {
    kv.close();
  }
});
