import type { Handlers } from "$fresh/server.ts";
import { listImports } from "@/lib/db/imports.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The imports, newest first: what, by whom, when, and how far. */
  async GET(_req, ctx) {
    return json(await listImports(ctx.state.services.kv));
  },
};
