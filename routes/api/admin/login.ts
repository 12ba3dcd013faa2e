import type { Handlers } from "$fresh/server.ts";
import { verifyAdminCredentials } from "@/lib/auth/admins.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { endSession, isHttps, startSession } from "@/lib/auth/sessions.ts";
import { CODE_REQUIRED, passwordLoginSecondStep } from "@/lib/auth/totp.ts";
import { loginSchema } from "@/lib/domain/schemas/public.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {username, password, code?} → 200 {username} with the session cookie; 401, or 429 when
   * throttled. An admin with an authenticator also needs `code` (401 `twoFactorRequired` without
   * it); with ADMIN_REQUIRE_2FA and none yet, the session may only set one up (`mustEnrolTotp`).
   */
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const { username, password, code } = await readJson(req, loginSchema);
    const checked = await verifyAdminCredentials(kv, username, password, clientIp(ctx));
    const admin = await passwordLoginSecondStep(kv, checked, code, config.adminRequire2fa ?? false);
    if (!admin) return json({ message: CODE_REQUIRED, twoFactorRequired: true }, { status: 401 });
    await endSession(kv, req); // a session the browser already had ends: one live token per login
    const cookie = await startSession(kv, admin, isHttps(req));
    const body = admin.mustEnrolTotp
      ? { username: admin.username, mustEnrolTotp: true }
      : { username: admin.username };
    return json(body, { headers: { "set-cookie": cookie } });
  },
};
