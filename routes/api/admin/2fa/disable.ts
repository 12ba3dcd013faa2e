import type { Handlers } from "$fresh/server.ts";
import { deleteTotp } from "@/lib/auth/records/totp.ts";
import { verifySecondFactor } from "@/lib/auth/totp.ts";
import { totpCodeSchema } from "@/lib/domain/schemas/public.ts";
import { fieldError, UnauthorizedError } from "@/lib/domain/errors.ts";
import { ForbiddenError, json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /**
   * {code} → 200: removes the admin's authenticator and recovery codes, after a current code (or
   * a recovery code). 403 when ADMIN_REQUIRE_2FA makes the second factor mandatory.
   */
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    if (config.adminRequire2fa) {
      throw new ForbiddenError("Two-factor authentication is required on this site");
    }
    const { code } = await readJson(req, totpCodeSchema);
    try {
      await verifySecondFactor(kv, ctx.state.admin.id, code);
    } catch (err) {
      // A wrong code is a bad field here, not a lost session (401 would send the admin to login).
      if (err instanceof UnauthorizedError) throw fieldError("code", err.message);
      throw err;
    }
    await deleteTotp(kv, ctx.state.admin.id);
    return json({ message: "Two-factor authentication turned off" });
  },
};
