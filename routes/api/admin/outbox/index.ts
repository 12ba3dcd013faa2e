import type { Handlers } from "$fresh/server.ts";
import { listOutboxTo } from "@/lib/db/outbox.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * ?to=address → {messages}: the last 50 e-mails to that address (any case), newest first, each
   * with its delivery state. The admin middleware guards it.
   */
  async GET(_req, ctx) {
    const to = ctx.url.searchParams.get("to")?.trim() ?? "";
    if (!to || to.length > 254 || !to.includes("@")) {
      throw fieldError("to", "Enter an e-mail address");
    }
    const { kv, mailer } = ctx.state.services;
    return json({ messages: await listOutboxTo(kv, mailer, to) });
  },
};
