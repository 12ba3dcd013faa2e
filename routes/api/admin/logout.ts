import type { Handlers } from "$fresh/server.ts";
import { endSession } from "@/lib/auth/sessions.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Ends the session and clears its cookie. */
  async POST(req, ctx) {
    const cookie = await endSession(ctx.state.services.kv, req);
    return json({ message: "Logged out" }, { headers: { "set-cookie": cookie } });
  },
};
