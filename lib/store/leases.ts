/**
 * Leases `["leases", name]`: work that one process at a time should do (the payment recovery
 * sweep) is done by whoever holds the lease; it lapses by itself when its holder dies.
 */
import { keys } from "./keys.ts";

interface Lease {
  owner: string;
  /** ms since the epoch. */
  until: number;
}

/**
 * Takes (or renews) the lease `name` for `owner` for `ms`: true when `owner` holds it now, false
 * while another owner's lease runs.
 */
export async function takeLease(
  kv: Deno.Kv,
  name: string,
  owner: string,
  ms: number,
  now = Date.now(),
): Promise<boolean> {
  const key = keys.lease(name);
  const current = await kv.get<Lease>(key);
  if (current.value && current.value.owner !== owner && current.value.until > now) return false;
  const lease: Lease = { owner, until: now + ms };
  const res = await kv.atomic().check(current).set(key, lease, { expireIn: ms }).commit();
  return res.ok;
}

/** Gives the lease back early (only when `owner` still holds it). */
export async function releaseLease(kv: Deno.Kv, name: string, owner: string): Promise<void> {
  const key = keys.lease(name);
  const current = await kv.get<Lease>(key);
  if (current.value?.owner !== owner) return;
  await kv.atomic().check(current).delete(key).commit();
}

/** A lease kept by `keepLease`. */
export interface KeptLease {
  /** Ends the renewals (waiting for one under way) and, with `release`, gives the lease back. */
  stop(release: boolean): Promise<void>;
}

/**
 * Renews `owner`'s lease `name` for `ms` every third of `ms` until `stop`: work that may outlast
 * a short lease keeps it while it goes on, and a dead holder's lease still lapses `ms` after its
 * last renewal.
 */
export function keepLease(kv: Deno.Kv, name: string, owner: string, ms: number): KeptLease {
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = takeLease(kv, name, owner, ms).catch(() => false);
  }, Math.max(1, Math.floor(ms / 3)));
  return {
    async stop(release) {
      clearInterval(timer);
      await renewing;
      if (release) await releaseLease(kv, name, owner).catch(() => {});
    },
  };
}
