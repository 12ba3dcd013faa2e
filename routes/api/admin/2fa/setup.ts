import type { Handlers } from "$fresh/server.ts";
import type { AdminIdentity } from "../../../../lib/auth/admins.ts";
import { startTotpEnrolment } from "../../../../lib/auth/totp.ts";
import { json } from "../../../../lib/http/errors.ts";
import { services } from "../../../../lib/services.ts";

export const handler: Handlers<unknown, { admin: AdminIdentity }> = {
  /** A new authenticator secret, pending until confirmed: {qrCode, secret, uri}, shown once. */
  async POST(_req, ctx) {
    return json(await startTotpEnrolment(services().kv, ctx.state.admin));
  },
};
