/**
 * `npm run admin:password`: a newcomer who lost the password printed at the first start gets a new
 * one, printed once, that signs in, while the old one and its sessions stop working.
 */
import assert from "node:assert/strict";
import { ensureAdmin, verifyAdminCredentials } from "@/lib/auth/admins.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";

async function runScript(kvPath: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/admin_password.ts", ...args],
    env: { DENO_KV_PATH: kvPath, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test("[admin password] the script sets a new password that signs in; the old one stops", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/app.kv`;
  try {
    const kv = await Deno.openKv(kvPath);
    await ensureAdmin(kv, "admin", "the-old-password-1");
    kv.close();

    const run = await runScript(kvPath);
    assert.equal(run.code, 0, run.stderr);
    const printed = /New password for admin "admin": (\S+) \(shown once/.exec(run.stdout);
    assert.ok(printed, run.stdout);

    const reopened = await Deno.openKv(kvPath);
    try {
      const admin = await verifyAdminCredentials(reopened, "admin", printed[1], "127.0.0.1");
      assert.equal(admin.username, "admin");
      await assert.rejects(
        verifyAdminCredentials(reopened, "admin", "the-old-password-1", "127.0.0.2"),
        UnauthorizedError,
      );
    } finally {
      reopened.close();
    }

    const created = await runScript(kvPath, "ops");
    assert.match(created.stdout, /^Created admin "ops": \S+ \(shown once/);
    const refused = await runScript(kvPath, "");
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Not a username/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
