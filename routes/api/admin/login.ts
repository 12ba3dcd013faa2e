import type { Handlers } from "$fresh/server.ts";
import { verifyAdminCredentials } from "../../../lib/auth/admins.ts";
import { clientIp } from "../../../lib/auth/guard.ts";
import { endSession, isHttps, startSession } from "../../../lib/auth/sessions.ts";
import { loginSchema } from "../../../lib/domain/schemas.ts";
import { json } from "../../../lib/http/errors.ts";
import { readJson } from "../../../lib/http/validate.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers = {
  /** {username, password} → 200 {username} with the session cookie; 401, or 429 when throttled. */
  async POST(req, ctx) {
    const { kv } = services();
    const { username, password } = await readJson(req, loginSchema);
    const admin = await verifyAdminCredentials(kv, username, password, clientIp(ctx));
    await endSession(kv, req); // a session the browser already had ends: one live token per login
    const cookie = await startSession(kv, admin, isHttps(req));
    return json({ username: admin.username }, { headers: { "set-cookie": cookie } });
  },
};
