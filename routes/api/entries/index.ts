import type { Handlers } from "$fresh/server.ts";
import { createdEntryView } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { entryCreateSchema } from "@/lib/domain/schemas/public.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { assertCaptaincy, WITH_CAPTAINS } from "@/lib/domain/captain.ts";
import { json } from "@/lib/http/errors.ts";
import { ownerCookie } from "@/lib/http/owner_cookie.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { readJson } from "@/lib/http/validate.ts";
import { finaliseEntry } from "@/lib/payments/checkout.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {competitionId, email, playerIds, stripePaymentId, teamName} → 201 with teamId, or 200 with
   * the same entry when this payment already made one. 409 (refunded) when entries are closed or
   * the paid picks break the team rules; a body of the wrong shape is a 400, never refunded.
   */
  async POST(req, ctx) {
    const { stripePaymentId, ...input } = await readJson(req, entryCreateSchema);
    if (!stripePaymentId) {
      throw fieldError("stripePaymentId", "Payment is required");
    }
    // The contest's option is checked when the payment is opened; here the choice's own shape
    // (both or neither, among the picks, two players) is: the commit keeps it only when valid.
    if (input.captainId !== undefined || input.viceCaptainId !== undefined) {
      assertCaptaincy(WITH_CAPTAINS, input.playerIds, input);
    }
    const deps = { ...ctx.state.services, readKv: ctx.state.services.cache.eventualKv };
    const { entry, created } = await finaliseEntry(
      deps,
      { ...input, stripePaymentId },
      linkOrigin(deps.config),
    );
    const res = json(createdEntryView(entry), { status: created ? 201 : 200 });
    // The payer's browser sees its whole team on the confirmation page (pick_privacy.ts).
    const cookie = ownerCookie(entry, isHttps(req));
    if (cookie) res.headers.append("set-cookie", cookie);
    return res;
  },
};
