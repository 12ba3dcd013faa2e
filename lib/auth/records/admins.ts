/** Administrators, unique by username (`["admin_by_username", username]`). */
import type { Admin } from "@/lib/domain/types.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { retryAtomic } from "@/lib/store/util.ts";

export interface AdminInput {
  username: string;
  passwordHash: string;
  salt: string;
  iterations: number;
}

export type PasswordFields = Pick<Admin, "passwordHash" | "salt" | "iterations">;

/** Creates an admin; ConflictError when the username is taken. */
export function createAdmin(kv: Deno.Kv, input: AdminInput): Promise<Admin> {
  return retryAtomic("create the admin", async () => {
    const byName = await kv.get(keys.adminByUsername(input.username));
    if (byName.value !== null) throw new ConflictError("Username already exists");
    const reservation = await reserveIds(kv, "admins");
    const admin: Admin = { id: reservation.ids[0], ...input, createdAt: new Date().toISOString() };
    const res = await reservation.claim(kv.atomic())
      .check(byName)
      .check({ key: keys.admin(admin.id), versionstamp: null })
      .set(keys.admin(admin.id), admin)
      .set(keys.adminByUsername(admin.username), admin.id)
      .commit();
    return res.ok ? admin : undefined;
  });
}

/** The admin with this id, or null. */
export async function getAdmin(kv: Deno.Kv, id: number): Promise<Admin | null> {
  return (await kv.get<Admin>(keys.admin(id))).value;
}

/** The admin with this username (exact match), or null. */
export async function getAdminByUsername(kv: Deno.Kv, username: string): Promise<Admin | null> {
  if (!isKeyText(username)) return null;
  const id = (await kv.get<number>(keys.adminByUsername(username))).value;
  return id === null ? null : getAdmin(kv, id);
}

/**
 * The versionstamp of the admin record behind this username, or null when there is none: it
 * changes with every write of the record (a new password), on whichever isolate or process.
 */
export async function adminVersion(kv: Deno.Kv, username: string): Promise<string | null> {
  if (!isKeyText(username)) return null;
  const id = (await kv.get<number>(keys.adminByUsername(username))).value;
  return id === null ? null : (await kv.get(keys.admin(id))).versionstamp;
}

/** Whether at least one admin exists (start-up creates one otherwise). */
export async function hasAdmins(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: keys.admins() }, { limit: 1 })) return true;
  return false;
}

/** Replaces an admin's password hash, salt and iterations. */
export function updateAdminPassword(
  kv: Deno.Kv,
  id: number,
  fields: PasswordFields,
): Promise<Admin> {
  return retryAtomic("update the admin password", async () => {
    const entry = await kv.get<Admin>(keys.admin(id));
    if (!entry.value) throw new NotFoundError("Admin not found");
    const admin: Admin = {
      ...entry.value,
      passwordHash: fields.passwordHash,
      salt: fields.salt,
      iterations: fields.iterations,
    };
    const res = await kv.atomic().check(entry).set(entry.key, admin).commit();
    return res.ok ? admin : undefined;
  });
}
