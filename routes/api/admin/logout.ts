import type { Handlers } from "$fresh/server.ts";
import { endSession } from "../../../lib/auth/sessions.ts";
import { json } from "../../../lib/http/errors.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers = {
  /** Ends the session and clears its cookie. */
  async POST(req) {
    const cookie = await endSession(services().kv, req);
    return json({ message: "Logged out" }, { headers: { "set-cookie": cookie } });
  },
};
