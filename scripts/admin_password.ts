/**
 * `npm run admin:password [-- username]` (or `deno task admin:password [username]`): gives an
 * admin of the store at DENO_KV_PATH (default ./data/app.kv) a new random password and prints it
 * once; creates the account when there is none of that name (default `admin`). The admin's
 * sessions end with the old password. The server may keep running meanwhile.
 */
import { resetAdminPassword } from "@/lib/auth/admins.ts";
import { isKeyText } from "@/lib/store/keys.ts";

const username = Deno.args[0] ?? "admin";
if (!isKeyText(username) || username.trim() === "") {
  console.error(`Not a username: ${JSON.stringify(username)}`);
  Deno.exit(2);
}
const kvPath = Deno.env.get("DENO_KV_PATH") ?? "./data/app.kv";
const kv = await Deno.openKv(kvPath);
try {
  const admin = await resetAdminPassword(kv, username);
  console.log(
    `${admin.created ? "Created admin" : "New password for admin"} "${admin.username}": ` +
      `${admin.password} (shown once; sign in at /admin)`,
  );
} finally {
  kv.close();
}
