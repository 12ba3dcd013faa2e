/** Numeric ids from atomic counters `["ids", entity]`, allocated in the same atomic as the create. */
import { type IdEntity, keys } from "./keys.ts";
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
