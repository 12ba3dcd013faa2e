/**
 * Dump and restore of a whole KV store as JSON lines: one `{"key": …, "value": …}` per entry.
 * Values that JSON cannot carry (bigint, KvU64, Date, Uint8Array, Map, Set, undefined, NaN, ±∞,
 * -0, RegExp) are tagged `{"$t": type, "v": …}`; a plain object that has its own "$t" is wrapped
 * as `{"$t": "obj", "v": …}`. Versionstamps and expiry times are not kept.
 */
import { decodeBase64, encodeBase64 } from "./base64.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TAG = "$t";

function tagged(type: string, v?: Json): Json {
  return v === undefined ? { [TAG]: type } : { [TAG]: type, v };
}

function encodeNumber(n: number): Json {
  if (Object.is(n, -0)) return tagged("num", "-0");
  return Number.isFinite(n) ? n : tagged("num", String(n));
}

/** A KV value (or key part) as JSON, losslessly. */
export function encodeValue(value: unknown): Json {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (value === undefined) return tagged("undef");
  if (typeof value === "number") return encodeNumber(value);
  if (typeof value === "bigint") return tagged("bigint", value.toString());
  if (value instanceof Deno.KvU64) return tagged("u64", value.value.toString());
  if (value instanceof Date) return tagged("date", encodeNumber(value.getTime()));
  if (value instanceof Uint8Array) return tagged("u8", encodeBase64(value));
  if (value instanceof RegExp) return tagged("regexp", [value.source, value.flags]);
  if (value instanceof Map) {
    return tagged("map", [...value].map(([k, v]) => [encodeValue(k), encodeValue(v)]));
  }
  if (value instanceof Set) return tagged("set", [...value].map(encodeValue));
  if (Array.isArray(value)) return value.map(encodeValue);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[k] = encodeValue(v);
    return Object.hasOwn(value, TAG) ? tagged("obj", out) : out;
  }
  throw new TypeError(`Cannot dump a value of type ${Object.prototype.toString.call(value)}`);
}

function decodeNumber(v: Json): number {
  return typeof v === "number" ? v : v === "-0" ? -0 : Number(v);
}

function decodeTagged(type: string, v: Json): unknown {
  switch (type) {
    case "undef":
      return undefined;
    case "num":
      return decodeNumber(v);
    case "bigint":
      return BigInt(v as string);
    case "u64":
      return new Deno.KvU64(BigInt(v as string));
    case "date":
      return new Date(decodeNumber(v));
    case "u8":
      return decodeBase64(v as string);
    case "regexp":
      return new RegExp((v as string[])[0], (v as string[])[1]);
    case "map":
      return new Map((v as Json[][]).map(([k, val]) => [decodeValue(k), decodeValue(val)]));
    case "set":
      return new Set((v as Json[]).map(decodeValue));
    case "obj":
      return decodeObject(v as { [key: string]: Json });
    default:
      throw new TypeError(`Unknown dump tag "${type}"`);
  }
}

function decodeObject(obj: { [key: string]: Json }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = decodeValue(v);
  return out;
}

/** The inverse of `encodeValue`. */
export function decodeValue(json: Json): unknown {
  if (json === null || typeof json !== "object") return json;
  if (Array.isArray(json)) return json.map(decodeValue);
  if (typeof json[TAG] === "string") return decodeTagged(json[TAG] as string, json.v);
  return decodeObject(json);
}

/** Every entry of the store as one JSON line (no trailing newline), in key order. */
export async function* dumpKv(kv: Deno.Kv): AsyncGenerator<string> {
  for await (const entry of kv.list({ prefix: [] })) {
    yield JSON.stringify({ key: entry.key.map(encodeValue), value: encodeValue(entry.value) });
  }
}

/** Parses one dump line back into a key and a value. */
function parseDumpLine(line: string): { key: Deno.KvKey; value: unknown } {
  const parsed = JSON.parse(line) as { key: Json[]; value: Json };
  if (!Array.isArray(parsed.key) || !("value" in parsed)) {
    throw new SyntaxError('A dump line must be {"key": [...], "value": ...}');
  }
  return { key: parsed.key.map(decodeValue) as Deno.KvKey, value: decodeValue(parsed.value) };
}

async function isEmpty(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return false;
  return true;
}

/** Mutations and approximate bytes per restore atomic, below Deno KV's 1000 / 800 KiB limits. */
const RESTORE_MAX_MUTATIONS = 500;
const RESTORE_MAX_BYTES = 300_000;

/**
 * Writes the entries of a dump into the store and returns how many were written. Refuses a
 * non-empty store unless `force` (then dumped keys are overwritten, other keys kept).
 */
export async function restoreKv(
  kv: Deno.Kv,
  lines: AsyncIterable<string> | Iterable<string>,
  options: { force?: boolean } = {},
): Promise<number> {
  if (!options.force && !(await isEmpty(kv))) {
    throw new Error("Refusing to restore into a non-empty store (use force to overwrite).");
  }
  let op = kv.atomic();
  let pending = 0;
  let bytes = 0;
  let written = 0;
  const flush = async () => {
    if (pending === 0) return;
    const res = await op.commit();
    if (!res.ok) throw new Error("Restore failed: the store refused a batch");
    written += pending;
    op = kv.atomic();
    pending = 0;
    bytes = 0;
  };
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const { key, value } = parseDumpLine(line);
    if (pending >= RESTORE_MAX_MUTATIONS || bytes + line.length > RESTORE_MAX_BYTES) await flush();
    op.set(key, value);
    pending++;
    bytes += line.length;
  }
  await flush();
  return written;
}
