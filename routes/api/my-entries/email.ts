import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { buildEntriesEmail, entrySummaries } from "@/lib/api/my_entries.ts";
import { linkOrigin } from "@/lib/config.ts";
import { listEntriesByEmail } from "@/lib/db/entries_by_email.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { findEntriesSchema } from "@/lib/domain/schemas/public.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { Services, State } from "@/lib/services.ts";

/** Per client address, and per e-mail address asked about. */
const CLIENT_LIMIT = { bucket: "find_entries_client", limit: 5, windowMs: 15 * 60_000 };
const ADDRESS_LIMIT = { bucket: "find_entries_address", limit: 3, windowMs: 60 * 60_000 };

/** The one answer, whether or not the address has entries. */
export const FIND_ENTRIES_SENT =
  "If this address has entries, we have e-mailed it a list with links to each of them.";

export const handler: Handlers<unknown, State> = {
  /**
   * {email} → 202 with the same message whether or not the address has entries (or the mail
   * server failed); the list goes to that address only. 429 past 5 asks per client in 15 minutes or 3 per
   * address in an hour.
   */
  async POST(req, ctx) {
    const deps = ctx.state.services;
    const { email } = await readJson(req, findEntriesSchema);
    for (
      const [limit, client] of [
        [CLIENT_LIMIT, clientIp(ctx) ?? "unknown"],
        [ADDRESS_LIMIT, email.toLowerCase()],
      ] as const
    ) {
      const rate = await hitRateLimit(deps.kv, { ...limit, client });
      if (!rate.allowed) {
        const minutes = Math.ceil(rate.retryAfterSeconds / 60);
        throw new TooManyRequestsError(
          `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          rate.retryAfterSeconds,
        );
      }
    }
    // The answer goes before, and without waiting for, the look-up and the mail: neither its
    // content nor its timing may tell whether the address has entries.
    mailEntries(deps, email, linkOrigin(deps.config)).catch((err) => {
      console.error(`Find-my-entries e-mail failed: ${err instanceof Error ? err.message : err}`);
    });
    return json({ message: FIND_ENTRIES_SENT }, { status: 202 });
  },
};

async function mailEntries({ kv, leaderboards, mailer }: Services, email: string, origin: string) {
  const entries = await listEntriesByEmail(kv, email);
  const summaries = await entrySummaries(kv, leaderboards, entries);
  if (summaries.length === 0) return;
  const editTokens = new Map(entries.map((e) => [e.teamId, e.editToken ?? null]));
  await mailer.send(buildEntriesEmail(email, summaries, origin, editTokens));
}
