/**
 * Admins' TOTP authenticators (the second factor of password logins) and their recovery codes:
 * a pending secret until confirmed, then the enrolment with the last time step used (a code is
 * accepted once), and one key per unused recovery code hash.
 */
import { keys } from "@/lib/store/keys.ts";
import { listKeys, retryAtomic } from "@/lib/store/util.ts";

export interface TotpEnrolment {
  /** The shared secret (20 random bytes). */
  secret: Uint8Array;
  /** The last 30-second time step whose code was accepted; older or equal steps are refused. */
  lastStep: number;
  /** ISO date-time of the confirmation. */
  enabledAt: string;
}

/** The confirmed authenticator of an admin, or null. */
export async function getTotpEnrolment(
  kv: Deno.Kv,
  adminId: number,
): Promise<TotpEnrolment | null> {
  return (await kv.get<TotpEnrolment>(keys.totpEnrolment(adminId))).value;
}

/** Keeps a secret shown to the admin for `ttlMs` until a first code confirms it. */
export async function savePendingTotp(
  kv: Deno.Kv,
  adminId: number,
  secret: Uint8Array,
  ttlMs: number,
): Promise<void> {
  await kv.set(keys.totpPendingEnrolment(adminId), secret, { expireIn: ttlMs });
}

/** The secret waiting for confirmation, or null (none, or expired). */
export async function getPendingTotp(kv: Deno.Kv, adminId: number): Promise<Uint8Array | null> {
  return (await kv.get<Uint8Array>(keys.totpPendingEnrolment(adminId))).value;
}

/**
 * Turns the pending secret into the admin's authenticator, with `step` as the code already used
 * and `recoveryHashes` replacing any older recovery codes, in one atomic. False when the pending
 * secret changed or vanished meanwhile.
 */
export async function activateTotp(
  kv: Deno.Kv,
  adminId: number,
  secret: Uint8Array,
  step: number,
  recoveryHashes: string[],
): Promise<boolean> {
  const pending = await kv.get<Uint8Array>(keys.totpPendingEnrolment(adminId));
  if (!pending.value || !sameBytes(pending.value, secret)) return false;
  const old = await listKeys(kv, keys.recoveryCodes(adminId));
  const op = kv.atomic().check(pending).delete(pending.key);
  for (const key of old) op.delete(key);
  const enrolment: TotpEnrolment = { secret, lastStep: step, enabledAt: new Date().toISOString() };
  op.set(keys.totpEnrolment(adminId), enrolment);
  for (const hash of recoveryHashes) op.set(keys.recoveryCode(adminId, hash), true);
  return (await op.commit()).ok;
}

/**
 * Records that the code of time step `step` was used; false when that step or a later one was
 * already used (a replayed code) or the admin has no authenticator.
 */
export function consumeTotpStep(kv: Deno.Kv, adminId: number, step: number): Promise<boolean> {
  return retryAtomic("record the code", async () => {
    const entry = await kv.get<TotpEnrolment>(keys.totpEnrolment(adminId));
    if (!entry.value || entry.value.lastStep >= step) return false;
    const res = await kv.atomic().check(entry).set(entry.key, { ...entry.value, lastStep: step })
      .commit();
    return res.ok ? true : undefined;
  });
}

/** Uses up the recovery code with this hash; false when the admin has no such unused code. */
export async function takeRecoveryCode(
  kv: Deno.Kv,
  adminId: number,
  hash: string,
): Promise<boolean> {
  const entry = await kv.get(keys.recoveryCode(adminId, hash));
  if (entry.value === null) return false;
  return (await kv.atomic().check(entry).delete(entry.key).commit()).ok;
}

/** How many unused recovery codes the admin has left. */
export async function countRecoveryCodes(kv: Deno.Kv, adminId: number): Promise<number> {
  return (await listKeys(kv, keys.recoveryCodes(adminId))).length;
}

/** Removes the admin's authenticator and recovery codes (password logins need no code again). */
export async function deleteTotp(kv: Deno.Kv, adminId: number): Promise<void> {
  const op = kv.atomic().delete(keys.totpEnrolment(adminId))
    .delete(keys.totpPendingEnrolment(adminId));
  for (const key of await listKeys(kv, keys.recoveryCodes(adminId))) op.delete(key);
  await op.commit();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
