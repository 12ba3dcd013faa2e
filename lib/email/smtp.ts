/** The SMTP mailer: sends through nodemailer to the server named by SMTP_URL. */
import nodemailer, { type Transporter } from "nodemailer";
import { outboxWrite } from "@/lib/db/outbox.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

/** Seconds we wait for an SMTP server before giving up (the test-email page shows the error). */
const TIMEOUT_MS = 10_000;

export class SmtpMailer implements Mailer {
  readonly kind = "smtp";
  private readonly transport: Transporter;

  /** `smtpUrl` like `smtp://user:pass@host:587` or `smtps://host:465`. */
  constructor(smtpUrl: string, private readonly from: string) {
    const url = new URL(smtpUrl);
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      secure: url.protocol === "smtps:",
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
  }

  /**
   * The writes that put the message in the outbox, marked for delivery, to commit with the
   * caller's own: it is sent once that commit is made (deliverOutboxMessage, then the outbox
   * delivery job until it goes), so a crash between the two neither loses nor repeats it.
   */
  stage(
    message: MailMessage,
  ): { id: number; checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] } {
    return outboxWrite(message, { deliver: true });
  }

  /** Sends one message; rejects with the SMTP error when the server refuses it. */
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.headers ? { headers: message.headers } : {}),
    });
  }
}
