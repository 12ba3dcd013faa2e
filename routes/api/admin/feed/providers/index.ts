import type { Handlers } from "$fresh/server.ts";
import * as z from "zod/mini";
import { createFeedProvider } from "@/lib/db/feed.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const providerInputSchema = z.object({
  name: z.string({ error: "Name is required" }).check(z.minLength(1, "Name is required")),
});

export const handler: Handlers<unknown, State> = {
  /** Adds a provider {name} with a fresh secret; 409 when the name is taken. */
  async POST(req, ctx) {
    const { name } = await readJson(req, providerInputSchema);
    return json(await createFeedProvider(ctx.state.services.kv, name.trim()), { status: 201 });
  },
};
