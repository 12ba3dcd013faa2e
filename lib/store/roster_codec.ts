/**
 * The packed roster record of an entry, the one place that knows its byte layout. A record holds
 * what ranking needs of an entry, little endian:
 *
 * | field      | bytes                                   |
 * | ---------- | --------------------------------------- |
 * | id         | f64                                     |
 * | createdMs  | f64 (the entry's createdAt)             |
 * | pickCount  | u8: the count (low 7 bits), CAPTAINED bit  |
 * | picks      | u32 × count (player ids)                |
 * | captains   | u8 captain, u8 vice-captain: pick index |
 * |            | (0xff none); only with the CAPTAINED bit |
 * | teamId     | u16 byte length, then the UTF-8 bytes   |
 * | teamName   | u16 byte length, then the UTF-8 bytes   |
 *
 * Records written before captains existed have the CAPTAINED bit clear (a team has 5 picks), so
 * they read as before: no captain.
 *
 * Records are concatenated into chunks; `RosterRecords` reads the fields of the record starting
 * at a byte offset of such a chunk (or of a single record) without copying it.
 */
import type { Entry } from "@/lib/domain/types.ts";

const ID = 0;
const CREATED_MS = 8;
const PICK_COUNT = 16;
const PICKS = 17;
const PICK_BYTES = 4;
const LENGTH_BYTES = 2;

/** Most picks a record can hold (7-bit count). */
const MAX_PICKS = 127;
/** The pickCount bit saying the captain bytes follow the picks. */
const CAPTAINED = 0x80;
const CAPTAIN_BYTES = 2;
const NO_PICK = 0xff;
/** Longest team id / team name kept (UTF-8 bytes; u16 length). */
const MAX_TEXT_BYTES = 4096;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function textBytes(text: string): Uint8Array {
  const bytes = encoder.encode(text);
  return bytes.length > MAX_TEXT_BYTES ? bytes.subarray(0, MAX_TEXT_BYTES) : bytes;
}

/** The packed roster record of an entry. */
export function encodeRosterRecord(entry: Entry): Uint8Array {
  const picks = entry.playerIds.slice(0, MAX_PICKS);
  const teamId = textBytes(entry.teamId);
  const teamName = textBytes(entry.teamName);
  const captain = entry.captainId === undefined ? -1 : picks.indexOf(entry.captainId);
  const vice = entry.viceCaptainId === undefined ? -1 : picks.indexOf(entry.viceCaptainId);
  const captained = captain >= 0;
  const size = PICKS + PICK_BYTES * picks.length + (captained ? CAPTAIN_BYTES : 0) +
    2 * LENGTH_BYTES + teamId.length + teamName.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setFloat64(ID, entry.id, true);
  view.setFloat64(CREATED_MS, Date.parse(entry.createdAt), true);
  view.setUint8(PICK_COUNT, picks.length | (captained ? CAPTAINED : 0));
  let at = PICKS;
  for (const id of picks) {
    view.setUint32(at, id, true);
    at += PICK_BYTES;
  }
  if (captained) {
    view.setUint8(at, captain);
    view.setUint8(at + 1, vice >= 0 ? vice : NO_PICK);
    at += CAPTAIN_BYTES;
  }
  for (const text of [teamId, teamName]) {
    view.setUint16(at, text.length, true);
    bytes.set(text, at + LENGTH_BYTES);
    at += LENGTH_BYTES + text.length;
  }
  return bytes;
}

/**
 * The records of a chunk. Each getter takes the byte offset where a record starts: 0 for the
 * first, `end(at)` for the one after the record at `at`.
 *
 * ```ts
 * for (let at = 0; at < records.length; at = records.end(at)) use(records.id(at));
 * ```
 */
export class RosterRecords {
  readonly bytes: Uint8Array;
  readonly #view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes in the chunk. */
  get length(): number {
    return this.bytes.length;
  }

  id(at: number): number {
    return this.#view.getFloat64(at + ID, true);
  }

  createdMs(at: number): number {
    return this.#view.getFloat64(at + CREATED_MS, true);
  }

  pickCount(at: number): number {
    return this.#view.getUint8(at + PICK_COUNT) & ~CAPTAINED;
  }

  /** The captain's pick index (0-based), or -1 when the record names none. */
  captainPick(at: number): number {
    return this.#captainByte(at, 0);
  }

  /** The vice-captain's pick index (0-based), or -1 when the record names none. */
  vicePick(at: number): number {
    return this.#captainByte(at, 1);
  }

  #captainByte(at: number, which: 0 | 1): number {
    if ((this.#view.getUint8(at + PICK_COUNT) & CAPTAINED) === 0) return -1;
    const index = this.#view.getUint8(at + PICKS + PICK_BYTES * this.pickCount(at) + which);
    return index === NO_PICK ? -1 : index;
  }

  /** Pick `p` (0-based) of the record. */
  pick(at: number, p: number): number {
    return this.#view.getUint32(at + PICKS + PICK_BYTES * p, true);
  }

  teamId(at: number): string {
    return this.#text(this.#teamIdAt(at));
  }

  teamName(at: number): string {
    return this.#text(this.#after(this.#teamIdAt(at)));
  }

  /** Where the record after the one at `at` starts (the chunk's length after the last). */
  end(at: number): number {
    return this.#after(this.#after(this.#teamIdAt(at)));
  }

  #teamIdAt(at: number): number {
    const flags = this.#view.getUint8(at + PICK_COUNT);
    const captains = (flags & CAPTAINED) === 0 ? 0 : CAPTAIN_BYTES;
    return at + PICKS + PICK_BYTES * (flags & ~CAPTAINED) + captains;
  }

  /** The offset after the length-prefixed text at `at`. */
  #after(at: number): number {
    return at + LENGTH_BYTES + this.#view.getUint16(at, true);
  }

  #text(at: number): string {
    const start = at + LENGTH_BYTES;
    return decoder.decode(this.bytes.subarray(start, start + this.#view.getUint16(at, true)));
  }
}
