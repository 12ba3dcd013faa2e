import * as z from "zod/mini";
import type { Handlers } from "$fresh/server.ts";
import { heldEntryCount } from "@/lib/api/entry_count.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { commitWithHits, prepareHits } from "@/lib/db/rate_limits.ts";
import { personOf } from "@/lib/domain/paid_entry.ts";
import { email } from "@/lib/domain/schemas/fields.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const WINDOW_MS = 10 * 60_000;
/** Look-ups of one person's count: the checkout asks once per e-mail typed. */
const PER_PERSON = { bucket: "entry_count_person", limit: 60, windowMs: WINDOW_MS };
/** Look-ups per client address (a crowd behind one address asks a few each). */
const PER_ADDRESS = { bucket: "entry_count_address", limit: 10_000, windowMs: WINDOW_MS };

const bodySchema = z.object({
  email,
  editTokens: z.optional(
    z.array(z.string({ error: "editTokens must be a list of edit secrets" }), {
      error: "editTokens must be a list of edit secrets",
    }).check(z.maxLength(100, "editTokens may hold at most 100 edit secrets")),
  ),
});

export const handler: Handlers<unknown, State> = {
  /**
   * {email, editTokens?} → {entryNumber, entriesAllowed}: which entry a new one by this person
   * would be, counting the entries this browser holds the edit secrets of (a POST: secrets stay
   * out of URLs and logs), and how many one person may hold. 400 invalid e-mail, 404 unknown
   * competition, 429 past the look-up limits.
   */
  async POST(req, ctx) {
    const cid = parseId(ctx.params.id);
    const input = await readJson(req, bodySchema);
    const { kv } = ctx.state.services;
    const limits = [{ ...PER_PERSON, client: personOf(input.email) }];
    const ip = clientIp(ctx);
    const ceilings = ip === null ? [] : [{ ...PER_ADDRESS, client: ip }];
    const rate = await commitWithHits(
      kv,
      limits,
      ceilings,
      await prepareHits(kv, limits, ceilings),
    );
    if (!rate.allowed) throw new TooManyRequestsError("Too many requests.", rate.retryAfterSeconds);
    const count = await heldEntryCount(kv, cid, input.email, input.editTokens ?? []);
    return json(count, { headers: { "cache-control": "no-store" } });
  },
};
