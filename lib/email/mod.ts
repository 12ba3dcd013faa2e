/** Picks the mailer from the configuration: SMTP when SMTP_URL is set, otherwise the KV outbox. */
import type { AppConfig } from "@/lib/config.ts";
import type { Mailer } from "./mailer.ts";
import { OutboxMailer } from "./outbox_mailer.ts";
import { SmtpMailer } from "./smtp.ts";

export { OutboxMailer } from "./outbox_mailer.ts";
export { SmtpMailer } from "./smtp.ts";
export { sendEntryConfirmation } from "./confirmation.ts";

/** The SMTP mailer when `config.smtpUrl` is set, else the outbox kept in `kv`. */
export function createMailer(config: AppConfig, kv: Deno.Kv): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new OutboxMailer(kv);
}
