import type { Handlers } from "$fresh/server.ts";
import { endSession, isHttps, startSession } from "@/lib/auth/sessions.ts";
import { confirmTotpEnrolment } from "@/lib/auth/totp.ts";
import { endSessionsBefore } from "@/lib/auth/records/sessions.ts";
import { totpCodeSchema } from "@/lib/domain/schemas/public.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /**
   * {code} → 200 {recoveryCodes} (shown once): the pending authenticator becomes the admin's.
   * The admin's other sessions end; this one is renewed as a full one (it may have been limited to
   * this set-up).
   */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const { code } = await readJson(req, totpCodeSchema);
    const { id, username } = ctx.state.admin;
    const recoveryCodes = await confirmTotpEnrolment(kv, { id, username }, code);
    // Sessions opened without the second factor (elsewhere, or stolen) end here; this one goes on.
    await endSessionsBefore(kv, id);
    await endSession(kv, req);
    const cookie = await startSession(kv, { id, username }, isHttps(req));
    return json({ recoveryCodes }, { headers: { "set-cookie": cookie } });
  },
};
