/** The SMTP mailer: sends through nodemailer to the server named by SMTP_URL. */
import nodemailer, { type Transporter } from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
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
      // Once the server has answered the message (queued or refused) there is nothing left to
      // say: the socket is closed at once, not half-closed with a 5-second timer waiting for
      // the server's side, so no timer or socket outlives `send`.
      socketCloseTimeout: 0,
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

  /**
   * Sends one message; rejects with the SMTP error when the server refuses it. The MIME message is
   * built in full first and sent as it is: nodemailer otherwise streams it while the SMTP dialogue
   * runs, a chain of `setImmediate` steps that a refusal of the recipient leaves queued after
   * `send` has rejected.
   */
  async send(message: MailMessage): Promise<void> {
    const mime = new MailComposer({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.headers ? { headers: message.headers } : {}),
    }).compile();
    const raw = await mime.build();
    await this.transport.sendMail({ envelope: mime.getEnvelope(), raw });
  }
}
