import assert from "node:assert/strict";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import {
  appendToRoster,
  backfillRoster,
  backfillRosters,
  COMPACT_AT,
  compactRoster,
  RosterColumns,
  type RosterMeta,
  RosterReader,
} from "@/lib/store/roster.ts";
import type { Entry } from "@/lib/domain/types.ts";
import { prng } from "@/lib/prng.ts";
import { encodeRosterRecord } from "@/lib/store/roster_codec.ts";
import { editEntry } from "@/lib/db/entry_edits.ts";
import { makeCompetition, makeEntry, validTeams } from "@/tests/helpers/fixtures.ts";

/** Every roster row as plain values, sorted by id. */
function rowsOf(cols: RosterColumns) {
  return Array.from({ length: cols.length }, (_, i) => ({
    id: cols.ids[i],
    createdAt: new Date(cols.createdMs[i]).toISOString(),
    playerIds: [...cols.picks.subarray(cols.pickStart[i], cols.pickStart[i + 1])],
    teamId: cols.teamId(i),
    teamName: cols.teamName(i),
  })).sort((a, b) => a.id - b.id);
}

/** The same fields from a full scan of the entries. */
async function fullScan(kv: Deno.Kv, cid: number) {
  const entries = await listEntriesByCompetition(kv, cid);
  return entries.map(({ id, createdAt, playerIds, teamId, teamName }) => ({
    id,
    createdAt,
    playerIds,
    teamId,
    teamName,
  })).sort((a, b) => a.id - b.id);
}

/** A competition as created before the roster existed: no roster meta, so a backfill is due. */
async function legacyCompetition(kv: Deno.Kv) {
  const competition = await makeCompetition(kv);
  await kv.delete(keys.rosterMeta(competition.id));
  return competition;
}

const NAMES = ["Alpha", "Ünïcødé FC", "", "x".repeat(60), "Les Bleus ⚽", "Team"];

/**
 * Writes `count` random entries of competition `cid` (ids from `nextId`), in batches; with
 * `roster` each batch also writes their roster records, as createEntry does; without, they are
 * "legacy" entries the backfill has to find.
 */
async function writeEntries(
  kv: Deno.Kv,
  cid: number,
  first: number,
  count: number,
  random: () => number,
  roster: boolean,
): Promise<void> {
  for (let start = 0; start < count; start += 200) {
    const op = kv.atomic();
    for (let i = start; i < Math.min(count, start + 200); i++) {
      const id = first + i;
      const entry: Entry = {
        id,
        competitionId: cid,
        email: "fan@example.com",
        teamId: `FFT-R${cid}-${id}`,
        teamName: NAMES[Math.floor(random() * NAMES.length)] + (random() < 0.5 ? ` ${id}` : ""),
        stripePaymentId: `pi_roster_${id}`,
        playerIds: Array.from({ length: 5 }, () => 1 + Math.floor(random() * 3000)),
        points: 0,
        rank: null,
        prize: null,
        prizeType: "CASH",
        customPrizeDescription: null,
        createdAt: new Date(Date.UTC(2030, 0, 1) + Math.floor(random() * 1e9)).toISOString(),
      };
      op.set(keys.entry(id), entry).set(keys.entryByCompetition(cid, id), id);
      if (roster) appendToRoster(op, entry);
    }
    assert.ok((await op.commit()).ok);
  }
}

Deno.test("[roster] matches a full scan on random data through backfill, appends and compaction", async () => {
  const kv = await Deno.openKv(":memory:");
  const random = prng(7);
  const competition = await legacyCompetition(kv);
  const cid = competition.id;
  const other = await legacyCompetition(kv);
  // Legacy entries (no roster records), interleaved ids with another competition.
  await writeEntries(kv, cid, 100_000, 700, random, false);
  await writeEntries(kv, other.id, 100_700, 300, random, false);
  await writeEntries(kv, cid, 101_000, 600, random, false);

  const incremental = new RosterReader();
  assert.equal(await incremental.catchUp(kv, cid), 0, "the backfill leaves no tail");
  assert.deepEqual(rowsOf(incremental.columns), await fullScan(kv, cid));
  const meta = (await kv.get<RosterMeta>(keys.rosterMeta(cid))).value!;
  assert.equal(meta.complete, true);
  assert.ok(meta.chunks >= 2, `1,300 records fill several chunks (${meta.chunks})`);

  for (let round = 0; round < 4; round++) {
    // New entries with roster records, ids out of commit order, then a partial compaction.
    await writeEntries(kv, cid, 200_000 - round * 1000, 400, random, true);
    if (round === 0) assert.equal(await incremental.catchUp(kv, cid), 400, "400 in the tail");
    if (round >= 1) assert.ok(await compactRoster(kv, cid) > 0, "compaction moved records");
    await incremental.catchUp(kv, cid);
    assert.deepEqual(rowsOf(incremental.columns), await fullScan(kv, cid), `round ${round}`);
    const fresh = new RosterReader();
    await fresh.catchUp(kv, cid);
    assert.deepEqual(rowsOf(fresh.columns), await fullScan(kv, cid), `fresh reader ${round}`);
  }
  const second = new RosterReader();
  await second.catchUp(kv, other.id);
  assert.deepEqual(rowsOf(second.columns), await fullScan(kv, other.id));
  for (const id of [100_000, 101_599, 199_000]) {
    assert.equal(incremental.columns.ids[incremental.columns.indexOf(id)], id);
  }
  assert.equal(incremental.columns.indexOf(100_700), -1, "another competition's entry");
  kv.close();
});

Deno.test("[roster] concurrent backfills and compactions never double or lose an entry", async () => {
  const kv = await Deno.openKv(":memory:");
  const random = prng(11);
  const competition = await legacyCompetition(kv);
  const cid = competition.id;
  await writeEntries(kv, cid, 1, 2500, random, false);
  await Promise.all([
    backfillRoster(kv, cid),
    backfillRoster(kv, cid),
    backfillRosters(kv),
    writeEntries(kv, cid, 5001, 300, random, true),
  ]);
  await writeEntries(kv, cid, 6001, 1200, random, true);
  await Promise.all([compactRoster(kv, cid), compactRoster(kv, cid), compactRoster(kv, cid)]);
  const reader = new RosterReader();
  await reader.catchUp(kv, cid);
  const rows = rowsOf(reader.columns);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, "no entry twice");
  assert.deepEqual(rows, await fullScan(kv, cid));
  kv.close();
});

Deno.test("[roster] a changed team replaces its record, before and after compaction", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const c = await makeCompetition(kv);
    const teams = validTeams(c);
    const entries: Entry[] = [];
    for (let i = 0; i < COMPACT_AT + 10; i++) {
      entries.push(await makeEntry(kv, c, { playerIds: teams[i % teams.length] }));
    }
    const reader = new RosterReader();
    await reader.catchUp(kv, c.id);
    assert.deepEqual(rowsOf(reader.columns), await fullScan(kv, c.id));

    const change = async (entry: Entry, n: number) => {
      const stored = (await kv.get<Entry>(keys.entry(entry.id))).value!;
      await editEntry(kv, stored.editToken!, {
        teamName: `Changed ${n}`,
        playerIds: teams[(n + 7) % teams.length],
        revision: stored.revision ?? 0,
      });
    };
    await change(entries[0], 1); // its record is still in the tail
    await reader.catchUp(kv, c.id);
    assert.deepEqual(rowsOf(reader.columns), await fullScan(kv, c.id));

    while (await compactRoster(kv, c.id) > 0) {
      // Seal the whole tail.
    }
    await change(entries[0], 2); // now sealed in a chunk: the tail record overrides it
    await change(entries[5], 3);
    await reader.catchUp(kv, c.id);
    assert.deepEqual(rowsOf(reader.columns), await fullScan(kv, c.id));
    assert.equal(reader.columns.length, entries.length, "no entry counted twice");

    while (await compactRoster(kv, c.id) > 0) {
      // The changed records move into a later chunk.
    }
    await change(entries[5], 4);
    const fresh = new RosterReader();
    await fresh.catchUp(kv, c.id);
    await reader.catchUp(kv, c.id);
    const expected = await fullScan(kv, c.id);
    assert.deepEqual(rowsOf(fresh.columns), expected, "a new isolate reads the newest records");
    assert.deepEqual(rowsOf(reader.columns), expected);
    assert.equal(expected.find((e) => e.id === entries[5].id)?.teamName, "Changed 4");
  } finally {
    kv.close();
  }
});

Deno.test("[roster] the columns carry each entry's captain and vice-captain, and follow an edit", () => {
  const base = (id: number, picks: number[]): Entry => ({
    id,
    competitionId: 1,
    email: "a@example.com",
    teamId: `T-${id}`,
    teamName: `Team ${id}`,
    stripePaymentId: `pi_${id}`,
    playerIds: picks,
    points: 0,
    rank: null,
    prize: null,
    prizeType: "CASH",
    customPrizeDescription: null,
    createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, id)).toISOString(),
  });
  const cols = new RosterColumns();
  cols.append(encodeRosterRecord({ ...base(1, [1, 2, 3, 4, 5]), captainId: 3, viceCaptainId: 5 }));
  cols.append(encodeRosterRecord(base(2, [6, 7, 8, 9, 10])));
  assert.deepEqual([cols.captains[0], cols.vices[0]], [3, 5]);
  assert.deepEqual([cols.captains[1], cols.vices[1]], [0, 0]);
  cols.append(encodeRosterRecord({ ...base(1, [1, 2, 3, 4, 6]), captainId: 6, viceCaptainId: 1 }));
  assert.equal(cols.length, 2);
  assert.deepEqual([cols.captains[0], cols.vices[0]], [6, 1], "an edit moves the armband");
});
