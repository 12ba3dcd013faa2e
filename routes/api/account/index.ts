import type { Handlers } from "$fresh/server.ts";
import { accountOf, accountView } from "@/lib/api/account.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The signed-in person's account: entries, limits, break, exclusion; 401 without a session. */
  async GET(req, ctx) {
    const services = ctx.state.services;
    const who = await accountOf(services.kv, req);
    if (!who) throw new UnauthorizedError("Please sign in with a link sent to your e-mail.");
    return json(await accountView(services, who), { headers: { "cache-control": "no-store" } });
  },
};
