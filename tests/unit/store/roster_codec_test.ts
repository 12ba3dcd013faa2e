import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { encodeRosterRecord, RosterRecords } from "@/lib/store/roster_codec.ts";
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

/** A record in the layout written before captains existed (no flag bit, no captain bytes). */
function oldRecord(id: number, picks: number[], teamId: string, teamName: string): Uint8Array {
  const texts = [teamId, teamName].map((t) => new TextEncoder().encode(t));
  const bytes = new Uint8Array(17 + 4 * picks.length + 4 + texts[0].length + texts[1].length);
  const view = new DataView(bytes.buffer);
  view.setFloat64(0, id, true);
  view.setFloat64(8, Date.UTC(2030, 0, 1), true);
  view.setUint8(16, picks.length);
  picks.forEach((p, i) => view.setUint32(17 + 4 * i, p, true));
  let at = 17 + 4 * picks.length;
  for (const text of texts) {
    view.setUint16(at, text.length, true);
    bytes.set(text, at + 2);
    at += 2 + text.length;
  }
  return bytes;
}

Deno.test("[roster codec] captains round-trip; records written before them still read, mixed in one chunk", () => {
  const captained = {
    ...entry(2, [21, 22, 23, 24, 25], "Armband FC"),
    captainId: 24,
    viceCaptainId: 21,
  };
  const noVice = { ...entry(3, [31, 32, 33, 34, 35], "Half Set"), captainId: 35 };
  const chunk = chunkOf(
    oldRecord(1, [11, 12, 13, 14, 15], "T-1", "Old Timers"),
    encodeRosterRecord(captained),
    encodeRosterRecord(entry(4, [41, 42, 43, 44, 45], "Plain")),
    encodeRosterRecord(noVice),
    oldRecord(5, [51, 52, 53, 54, 55], "T-5", "Older Still"),
  );
  const records = new RosterRecords(chunk);
  const read = [];
  for (let at = 0; at < records.length; at = records.end(at)) {
    read.push({
      id: records.id(at),
      picks: Array.from({ length: records.pickCount(at) }, (_, p) => records.pick(at, p)),
      captain: records.captainPick(at),
      vice: records.vicePick(at),
      teamName: records.teamName(at),
    });
  }
  assert.deepEqual(read, [
    { id: 1, picks: [11, 12, 13, 14, 15], captain: -1, vice: -1, teamName: "Old Timers" },
    { id: 2, picks: [21, 22, 23, 24, 25], captain: 3, vice: 0, teamName: "Armband FC" },
    { id: 4, picks: [41, 42, 43, 44, 45], captain: -1, vice: -1, teamName: "Plain" },
    { id: 3, picks: [31, 32, 33, 34, 35], captain: 4, vice: -1, teamName: "Half Set" },
    { id: 5, picks: [51, 52, 53, 54, 55], captain: -1, vice: -1, teamName: "Older Still" },
  ]);
  assert.equal(
    encodeRosterRecord(entry(9, [1, 2, 3, 4, 5], "Same")).length,
    oldRecord(9, [1, 2, 3, 4, 5], "T-9", "Same").length,
    "a record without captains keeps the old layout byte for byte in size",
  );
  assert.deepEqual(
    encodeRosterRecord(entry(9, [1, 2, 3, 4, 5], "Same")).subarray(16),
    oldRecord(9, [1, 2, 3, 4, 5], "T-9", "Same").subarray(16),
  );
});
