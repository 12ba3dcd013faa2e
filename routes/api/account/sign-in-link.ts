import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { requestSignInLink, SIGN_IN_SENT } from "@/lib/api/account.ts";
import { linkOrigin } from "@/lib/config.ts";
import { signInLinkSchema } from "@/lib/domain/schemas/account.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {email} → 202, the link e-mailed; 429 when asked too often for the address or client. */
  async POST(req, ctx) {
    const services = ctx.state.services;
    const { email } = await readJson(req, signInLinkSchema);
    await requestSignInLink(
      services,
      email,
      clientIp(ctx) ?? "unknown",
      linkOrigin(services.config),
    );
    return json({ message: SIGN_IN_SENT }, { status: 202 });
  },
};
