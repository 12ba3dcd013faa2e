import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { testEmailSchema } from "@/lib/domain/schemas/public.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

/** A public route that sends mail: at most 5 test e-mails per address every 10 minutes. */
const TEST_EMAIL_LIMIT = { bucket: "test_email", limit: 5, windowMs: 10 * 60_000 };

export const handler: Handlers<unknown, State> = {
  /**
   * Sends a test e-mail to {email}; 429 (with Retry-After) after 5 from one client address in
   * 10 minutes; 502 with the reason when the mail server refuses it.
   */
  async POST(req, ctx) {
    const { kv, mailer } = ctx.state.services;
    const { email } = await readJson(req, testEmailSchema);
    const client = clientIp(ctx) ?? "unknown";
    const rate = await hitRateLimit(kv, { ...TEST_EMAIL_LIMIT, client });
    if (!rate.allowed) {
      const minutes = Math.ceil(rate.retryAfterSeconds / 60);
      throw new TooManyRequestsError(
        `Too many test emails. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        rate.retryAfterSeconds,
      );
    }
    try {
      await mailer.send({
        to: email,
        subject: "Test email from Fantasy Football",
        text: "This is a test email. If you can read it, e-mail delivery works.",
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      console.error(`Test e-mail to ${email} failed: ${reason}`);
      return json({ message: `Failed to send test email: ${publicReason(err)}` }, { status: 502 });
    }
    return json({ message: "Test email sent successfully. Please check your inbox." });
  },
};

/**
 * What a visitor may read of a mail failure: the SMTP server's own answer (a refused recipient,
 * say), never a connection, TLS or login error, whose text names our mail host, port or account.
 */
function publicReason(err: unknown): string {
  const { responseCode, code, message } = (err ?? {}) as {
    responseCode?: unknown;
    code?: unknown;
    message?: unknown;
  };
  if (typeof responseCode === "number" && code !== "EAUTH" && typeof message === "string") {
    return message;
  }
  return "the mail server could not be reached.";
}
