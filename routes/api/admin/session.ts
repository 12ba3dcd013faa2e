import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /** The logged-in admin (the middleware answered 401 otherwise). */
  GET(_req, ctx) {
    return json({ username: ctx.state.admin.username });
  },
};
