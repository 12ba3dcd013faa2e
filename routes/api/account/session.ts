import type { Handlers } from "$fresh/server.ts";
import { accountCookie, accountOf } from "@/lib/api/account.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { endAccountSession, redeemSignInLink } from "@/lib/db/persons.ts";
import { signInSchema } from "@/lib/domain/schemas/account.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {token} of a sign-in link → 200 and the session cookie; 409 for a used or expired link. */
  async POST(req, ctx) {
    const { token } = await readJson(req, signInSchema);
    const { sessionId, person } = await redeemSignInLink(ctx.state.services.kv, token);
    return json({ person }, { headers: { "set-cookie": accountCookie(sessionId, isHttps(req)) } });
  },
  /** Signs this browser out. */
  async DELETE(req, ctx) {
    const who = await accountOf(ctx.state.services.kv, req);
    if (who) await endAccountSession(ctx.state.services.kv, who.sessionId);
    return json({ signedOut: true }, {
      headers: { "set-cookie": accountCookie("", isHttps(req)) },
    });
  },
};
