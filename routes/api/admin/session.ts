import type { Handlers } from "$fresh/server.ts";
import type { AdminIdentity } from "../../../lib/auth/admins.ts";
import { json } from "../../../lib/http/errors.ts";

export const handler: Handlers<unknown, { admin: AdminIdentity }> = {
  /** The logged-in admin (the middleware answered 401 otherwise). */
  GET(_req, ctx) {
    return json({ username: ctx.state.admin.username });
  },
};
