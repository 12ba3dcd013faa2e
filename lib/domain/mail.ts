/**
 * What an e-mail is and the interface that sends one (SMTP through nodemailer, or an outbox kept
 * in KV). Kept here, below the store, because the outbox's storage (lib/db/outbox.ts) and the
 * transports (lib/email/) both speak it.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (the notifications' `List-Unsubscribe` and `List-Unsubscribe-Post`). */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  /**
   * The store writes that keep `message` for sending, for the caller to commit in its own atomic
   * (the message then exists exactly when that write does); absent where sending is no store
   * write (SMTP: call `send` after the commit).
   */
  stage?(
    message: MailMessage,
  ): { id?: number; checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] };
}
