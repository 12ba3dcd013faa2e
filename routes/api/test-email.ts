import type { Handlers } from "$fresh/server.ts";
import { testEmailSchema } from "../../lib/domain/schemas.ts";
import { json } from "../../lib/http/errors.ts";
import { readJson } from "../../lib/http/validate.ts";
import { services } from "../../lib/services.ts";

export const handler: Handlers = {
  /** Sends a test e-mail to {email}; 502 with the reason when the mail server refuses it. */
  async POST(req) {
    const { email } = await readJson(req, testEmailSchema);
    try {
      await services().mailer.send({
        to: email,
        subject: "Test email from Fantasy Football",
        text: "This is a test email. If you can read it, e-mail delivery works.",
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      console.error(`Test e-mail to ${email} failed: ${reason}`);
      return json({ message: `Failed to send test email: ${reason}` }, { status: 502 });
    }
    return json({ message: "Test email sent successfully. Please check your inbox." });
  },
};
