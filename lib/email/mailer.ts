/** The mail transport interface: SMTP through nodemailer, or an outbox kept in KV. */
export type { Mailer, MailMessage } from "@/lib/domain/mail.ts";
