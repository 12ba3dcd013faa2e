import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encodeRosterRecord, RosterRecords } from "@/lib/db/roster_codec.ts";
import type { Entry } from "@/lib/domain/types.ts";

function entry(id: number, playerIds: number[], teamName: string, teamId = `T-${id}`): Entry {
  return {
    id,
    competitionId: 1,
    teamId,
    teamName,
    email: "a@example.com",
    stripePaymentId: `pi_${id}`,
    playerIds,
    points: 0,
    rank: null,
    prize: null,
    prizeType: "CASH",
    customPrizeDescription: null,
    createdAt: new Date(Date.UTC(2031, 5, 15, 18, 30, id)).toISOString(),
  };
}

/** Records one after another, as a sealed chunk holds them. */
function chunkOf(...records: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(records));
}

/** Every record of a chunk, field by field. */
function decodeAll(bytes: Uint8Array) {
  const records = new RosterRecords(bytes);
  const out = [];
  for (let at = 0; at < records.length; at = records.end(at)) {
    const picks = Array.from({ length: records.pickCount(at) }, (_, p) => records.pick(at, p));
    out.push({
      id: records.id(at),
      createdAt: new Date(records.createdMs(at)).toISOString(),
      picks,
      teamId: records.teamId(at),
      teamName: records.teamName(at),
    });
  }
  return out;
}

Deno.test("[roster codec] records round-trip field by field, one after another in a chunk", () => {
  const entries = [
    entry(1, [11, 12, 13, 14, 15], "Peña's Picks ⚽"),
    entry(2, [4_000_000_000, 2, 3, 4, 5], "", "T-2"),
    entry(3, [], "No picks", "T-三"),
  ];
  const decoded = decodeAll(chunkOf(...entries.map(encodeRosterRecord)));
  assert.deepEqual(
    decoded,
    entries.map((e) => ({
      id: e.id,
      createdAt: e.createdAt,
      picks: e.playerIds,
      teamId: e.teamId,
      teamName: e.teamName,
    })),
  );
});

Deno.test("[roster codec] a record read inside a larger buffer uses its own offsets", () => {
  const record = encodeRosterRecord(entry(7, [1, 2, 3, 4, 5], "Offset FC"));
  const padded = new Uint8Array(record.length + 9);
  padded.set(record, 9);
  const view = new RosterRecords(padded.subarray(9));
  assert.equal(view.id(0), 7);
  assert.equal(view.teamName(0), "Offset FC");
  assert.equal(view.end(0), record.length);
});

Deno.test("[roster codec] an over-long team name is cut at 4096 bytes, not the record", () => {
  const long = "x".repeat(5000);
  const records = new RosterRecords(
    chunkOf(encodeRosterRecord(entry(1, [1], long)), encodeRosterRecord(entry(2, [2], "next"))),
  );
  assert.equal(records.teamName(0), "x".repeat(4096));
  const second = records.end(0);
  assert.equal(records.id(second), 2);
  assert.equal(records.teamName(second), "next");
  assert.equal(records.end(second), records.length);
});
