/** The outbox mailer (no SMTP_URL): messages are kept in KV instead of being sent. */
import { addOutboxMessage, outboxWrite } from "@/lib/db/outbox.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

export class OutboxMailer implements Mailer {
  readonly kind = "outbox";

  constructor(private readonly kv: Deno.Kv) {}

  /** Stores the message in the outbox (readable with `listOutbox`). */
  async send(message: MailMessage): Promise<void> {
    await addOutboxMessage(this.kv, message);
  }

  /** The writes that store the message, to commit with the caller's own. */
  stage(message: MailMessage): { checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] } {
    return outboxWrite(message);
  }
}
