import type { Handlers } from "$fresh/server.ts";
import { accountOf, accountView } from "@/lib/api/account.ts";
import { excludeSelf } from "@/lib/db/persons.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { exclusionSchema } from "@/lib/domain/schemas/account.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {period: "6m" | "1y" | "5y", confirm: true} → the account; it cannot be undone early. */
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { period } = await readJson(req, exclusionSchema);
    const who = await accountOf(services.kv, req);
    if (!who) throw new UnauthorizedError("Please sign in with a link sent to your e-mail.");
    await excludeSelf(services.kv, who.person, period);
    return json(await accountView(services, who));
  },
};
