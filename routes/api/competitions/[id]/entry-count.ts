import * as z from "zod/mini";
import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { personStanding } from "@/lib/db/entries.ts";
import { commitWithHits, prepareHits } from "@/lib/db/rate_limits.ts";
import { entriesPerPerson, personOf } from "@/lib/domain/paid_entry.ts";
import { email } from "@/lib/domain/schemas/fields.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, parseWith } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const WINDOW_MS = 10 * 60_000;
/** Look-ups of one person's count: the checkout asks once per e-mail typed. */
const PER_PERSON = { bucket: "entry_count_person", limit: 60, windowMs: WINDOW_MS };
/** Look-ups per client address (a crowd behind one address asks a few each). */
const PER_ADDRESS = { bucket: "entry_count_address", limit: 10_000, windowMs: WINDOW_MS };

const querySchema = z.object({ email });

export const handler: Handlers<unknown, State> = {
  /**
   * ?email= → {entryNumber, entriesAllowed}: which entry a new one by this person would be, and
   * how many one person may hold (the checkout's "Entry n of m"); nothing else about the entries.
   * 400 without a valid e-mail, 404 unknown competition, 429 past the look-up limits.
   */
  async GET(req, ctx) {
    const cid = parseId(ctx.params.id);
    const query = Object.fromEntries(new URL(req.url).searchParams);
    const { email: address } = parseWith(querySchema, { email: query.email ?? "" });
    const { kv } = ctx.state.services;
    const limits = [{ ...PER_PERSON, client: personOf(address) }];
    const ip = clientIp(ctx);
    const ceilings = ip === null ? [] : [{ ...PER_ADDRESS, client: ip }];
    const rate = await commitWithHits(
      kv,
      limits,
      ceilings,
      await prepareHits(kv, limits, ceilings),
    );
    if (!rate.allowed) throw new TooManyRequestsError("Too many requests.", rate.retryAfterSeconds);
    const competition = await requireCompetition(kv, cid);
    const person = await personStanding(kv, cid, address);
    return json({
      entryNumber: person.entries + 1,
      entriesAllowed: entriesPerPerson(competition),
    }, { headers: { "cache-control": "no-store" } });
  },
};
