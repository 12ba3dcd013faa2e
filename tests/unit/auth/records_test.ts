import assert from "node:assert/strict";
import {
  createAdmin,
  getAdmin,
  getAdminByUsername,
  hasAdmins,
  updateAdminPassword,
} from "@/lib/auth/records/admins.ts";
import { createSession, deleteSession, getSession } from "@/lib/auth/records/sessions.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";

const credentials = { passwordHash: "aGFzaA==", salt: "c2FsdA==", iterations: 210000 };

Deno.test("[admins] usernames are unique, even in parallel", async () => {
  const kv = await Deno.openKv(":memory:");
  assert.equal(await hasAdmins(kv), false);
  const results = await Promise.allSettled(
    Array.from({ length: 5 }, () => createAdmin(kv, { username: "admin", ...credentials })),
  );
  assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
  for (const r of results.filter((r) => r.status === "rejected")) {
    assert.ok((r as PromiseRejectedResult).reason instanceof ConflictError);
  }
  const admin = await getAdminByUsername(kv, "admin");
  assert.equal(admin?.username, "admin");
  assert.equal(await hasAdmins(kv), true);
  assert.equal(await getAdminByUsername(kv, "Admin"), null);

  const updated = await updateAdminPassword(kv, admin!.id, {
    passwordHash: "bmV3",
    salt: "bmV3c2FsdA==",
    iterations: 300000,
  });
  assert.equal(updated.iterations, 300000);
  assert.deepEqual(await getAdmin(kv, admin!.id), updated);
  await assert.rejects(updateAdminPassword(kv, 42, credentials), NotFoundError);
  kv.close();
});

Deno.test("[sessions] live until they expire or are deleted", async () => {
  const kv = await Deno.openKv(":memory:");
  const expiresAt = new Date(Date.now() + 60_000).toISOString();
  const session = { token: "tok-1", adminId: 1, username: "admin", expiresAt };
  await createSession(kv, session);
  assert.deepEqual(await getSession(kv, "tok-1"), session);
  assert.equal(await getSession(kv, "tok-1", new Date(Date.now() + 120_000)), null);
  assert.equal(await getSession(kv, "nope"), null);
  await deleteSession(kv, "tok-1");
  assert.equal(await getSession(kv, "tok-1"), null);
  kv.close();
});
