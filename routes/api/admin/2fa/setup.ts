import type { Handlers } from "$fresh/server.ts";
import { startTotpEnrolment } from "@/lib/auth/totp.ts";
import { json } from "@/lib/http/errors.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /** A new authenticator secret, pending until confirmed: {qrCode, secret, uri}, shown once. */
  async POST(_req, ctx) {
    return json(await startTotpEnrolment(ctx.state.services.kv, ctx.state.admin));
  },
};
