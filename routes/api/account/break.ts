import type { Handlers } from "$fresh/server.ts";
import { accountOf, accountView } from "@/lib/api/account.ts";
import { startBreak } from "@/lib/db/persons.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { breakSchema } from "@/lib/domain/schemas/account.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {hours} from 24 to 1008 → the account; no paid entry until the break ends. */
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { hours } = await readJson(req, breakSchema);
    const who = await accountOf(services.kv, req);
    if (!who) throw new UnauthorizedError("Please sign in with a link sent to your e-mail.");
    await startBreak(services.kv, who.person, hours);
    return json(await accountView(services, who));
  },
};
