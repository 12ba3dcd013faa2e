import type { Handlers } from "$fresh/server.ts";
import { accountOf, accountView, saveLimits } from "@/lib/api/account.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { limitsSchema } from "@/lib/domain/schemas/account.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {daily?, weekly?, monthly?} in dollars (null: none) → the account. A lower limit applies at
   * once, a higher one (or none) after 24 hours.
   */
  async PUT(req, ctx) {
    const services = ctx.state.services;
    const input = await readJson(req, limitsSchema);
    const who = await accountOf(services.kv, req);
    if (!who) throw new UnauthorizedError("Please sign in with a link sent to your e-mail.");
    await saveLimits(services.kv, who.person, input);
    return json(await accountView(services, who));
  },
};
