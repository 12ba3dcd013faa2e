import type { Handlers } from "$fresh/server.ts";
import { resendOutboxMessage } from "@/lib/db/outbox.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { auditStampOf } from "@/lib/http/admin_audit.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Sends message `id` again as a new message (handed to SMTP at once when there is one). */
  async POST(_req, ctx) {
    const id = parseId(ctx.params.id);
    const { kv, mailer } = ctx.state.services;
    const sent = await resendOutboxMessage(kv, mailer, id, auditStampOf(ctx.state));
    if (!sent) throw new NotFoundError("Message not found");
    return json({ id: sent.id, to: sent.to, subject: sent.subject, createdAt: sent.createdAt });
  },
};
