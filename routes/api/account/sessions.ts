import type { Handlers } from "$fresh/server.ts";
import { accountCookie, accountOf } from "@/lib/api/account.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { endEverySession } from "@/lib/db/persons.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Signs the person out on every device ("Sign out everywhere"). */
  async DELETE(req, ctx) {
    const who = await accountOf(ctx.state.services.kv, req);
    if (!who) throw new UnauthorizedError("Please sign in with a link sent to your e-mail.");
    await endEverySession(ctx.state.services.kv, who.person);
    return json({ signedOut: true }, {
      headers: { "set-cookie": accountCookie("", isHttps(req)) },
    });
  },
};
