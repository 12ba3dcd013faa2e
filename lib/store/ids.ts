/** Numeric ids from atomic counters `["ids", entity]`, allocated in the same atomic as the create. */
import { type IdEntity, keys } from "./keys.ts";
import { commitGrouped, type GroupedWrite } from "./group_commit.ts";
import { retryAtomic } from "./util.ts";

/** Ids reserved from a counter read; `claim` adds the counter check + update to an atomic. */
export interface IdReservation {
  ids: number[];
  claim(op: Deno.AtomicOperation): Deno.AtomicOperation;
}

/**
 * Reads the counter of `entity` and reserves the next `count` ids. The reservation only holds if
 * `claim(op)` is part of the atomic that commits; a concurrent allocation makes that atomic fail.
 */
export async function reserveIds(
  kv: Deno.Kv,
  entity: IdEntity,
  count = 1,
): Promise<IdReservation> {
  const key = keys.ids(entity);
  const counter = await kv.get<number>(key);
  const last = counter.value ?? 0;
  const ids = Array.from({ length: count }, (_, i) => last + i + 1);
  return {
    ids,
    claim: (op) => op.check(counter).set(key, last + count),
  };
}

/**
 * Creates one record with a fresh id: `build(id, op)` adds the record's mutations and checks to
 * the atomic, which is retried with a new id whenever anything checked changed.
 * @example const team = await createWithId(kv, "teams", (id, op) => { ...; return team; });
 */
export function createWithId<T>(
  kv: Deno.Kv,
  entity: IdEntity,
  build: (id: number, op: Deno.AtomicOperation) => T,
): Promise<T> {
  return retryAtomic(`create ${entity}`, async () => {
    const reservation = await reserveIds(kv, entity);
    const op = reservation.claim(kv.atomic());
    const record = build(reservation.ids[0], op);
    const res = await op.commit();
    return res.ok ? record : undefined;
  });
}

let lastTimeId = 0;

/**
 * A numeric id that needs no shared counter (so writers never meet on one key): the time in ms
 * × 1024 plus a random part, ascending within the process and ordered by time across processes.
 * Not guaranteed unique across processes: write it with a `versionstamp: null` check.
 */
export function timeOrderedId(now = Date.now()): number {
  lastTimeId = Math.max(now * 1024 + Math.floor(Math.random() * 1024), lastTimeId + 1);
  return lastTimeId;
}

/**
 * Creates one record under `key(id)` with a fresh timeOrderedId (see there), for records written
 * often by everyone at once (the outbox): `build(id)` gives the record and its mutations, which
 * are group-committed (group_commit.ts).
 */
export function createWithTimeId<T>(
  key: (id: number) => Deno.KvKey,
  kv: Deno.Kv,
  build: (id: number) => { record: T; mutations: GroupedWrite["mutations"] },
): Promise<T> {
  return retryAtomic("create the record", async () => {
    const id = timeOrderedId();
    const { record, mutations } = build(id);
    const ok = await commitGrouped(kv, {
      checks: [{ key: key(id), versionstamp: null }],
      mutations,
    });
    return ok ? record : undefined;
  });
}
