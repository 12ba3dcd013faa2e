import type { Handlers } from "$fresh/server.ts";
import { hasTotp, startTotpEnrolment, verifySecondFactor } from "@/lib/auth/totp.ts";
import { fieldError, UnauthorizedError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { readText } from "@/lib/http/validate.ts";
import type { AdminState } from "@/lib/services.ts";

const CODE_NEEDED =
  "Enter a current code from your authenticator (or a recovery code) to replace it.";

/** The `code` of the body, if any (an empty or non-JSON body has none). */
async function codeOf(req: Request): Promise<string | null> {
  // Through readText: the admin log has already read the body (a request's body is read once).
  const text = await readText(req);
  if (text.length > 1000) throw fieldError("code", "The request is too large.");
  let body: { code?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof body?.code === "string" && body.code.trim() !== "" ? body.code : null;
}

export const handler: Handlers<unknown, AdminState> = {
  /**
   * A new authenticator secret, pending until confirmed: {qrCode, secret, uri}, shown once. An
   * admin who already has one must give {code}: a current code or a recovery code (a session
   * alone must not be enough to swap the second factor).
   */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const admin = ctx.state.admin;
    if (await hasTotp(kv, admin.id)) {
      const code = await codeOf(req);
      if (!code) throw fieldError("code", CODE_NEEDED);
      try {
        await verifySecondFactor(kv, admin.id, code);
      } catch (err) {
        if (err instanceof UnauthorizedError) throw fieldError("code", err.message);
        throw err;
      }
    }
    return json(await startTotpEnrolment(kv, admin));
  },
};
