import type { Handlers } from "$fresh/server.ts";
import { unsubscribeEmails } from "@/lib/db/notifications.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { readUnsubscribeToken } from "@/lib/notify/secrets.ts";
import type { State } from "@/lib/services.ts";

/** The answer of a done unsubscribe. */
export const UNSUBSCRIBED_MESSAGE = "You will get no more of these e-mails for this entry.";

export const handler: Handlers<unknown, State> = {
  /**
   * RFC 8058 one-click unsubscribe: `?t=` the signed token from the e-mail, any body (mail
   * providers send `List-Unsubscribe=One-Click`), no login. Every e-mail opt-in of the entry is
   * withdrawn → 200 (again: 200 too); 404 for a token this site did not sign. A form on
   * /unsubscribe posts here too and is sent back to it.
   */
  async POST(req, ctx) {
    await req.body?.cancel();
    const token = ctx.url.searchParams.get("t") ?? "";
    const target = await readUnsubscribeToken(
      ctx.state.services.kv,
      ctx.state.services.notify,
      token,
    );
    if (!target) throw new NotFoundError("Unsubscribe link not found");
    await unsubscribeEmails(ctx.state.services.kv, target.cid, target.entryId);
    if (ctx.url.searchParams.get("from") === "page") {
      return new Response(null, {
        status: 303,
        headers: { location: `/unsubscribe?done=1` },
      });
    }
    return json({ message: UNSUBSCRIBED_MESSAGE });
  },
};
