/**
 * My account, for the API and the page alike: the sign-in link, the session cookie, what the
 * account shows (entries, limits, break, exclusion) and the person's own changes to their play.
 */
import { entrySummaries } from "@/lib/api/my_entries.ts";
import { readCookie } from "@/lib/auth/sessions.ts";
import { listEntriesByEmail } from "@/lib/db/entries_by_email.ts";
import { deliverOutboxMessage, mailerDelivers } from "@/lib/db/outbox.ts";
import {
  ACCOUNT_SESSION_MS,
  createSignInLink,
  getPerson,
  savePersonLimit,
  sessionPerson,
} from "@/lib/db/persons.ts";
import { hitRateLimits } from "@/lib/db/rate_limits.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import type { EntrySummary } from "@/lib/domain/live.ts";
import {
  type Exclusion,
  LIMIT_PERIODS,
  limitInForce,
  type LimitPeriod,
  spentPerPeriod,
} from "@/lib/domain/limits.ts";
import { personOf } from "@/lib/domain/paid_entry.ts";
import type { Mailer } from "@/lib/domain/mail.ts";
import type { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";

export const ACCOUNT_COOKIE = "account_session";
/** The one answer to a link request, whatever the address. */
export const SIGN_IN_SENT =
  "We have e-mailed a sign-in link to this address. It works once, within 15 minutes.";

const CLIENT_LIMIT = { bucket: "sign_in_link_client", limit: 10, windowMs: 15 * 60_000 };
const ADDRESS_LIMIT = { bucket: "sign_in_link_address", limit: 3, windowMs: 15 * 60_000 };

/** Who a request's session cookie signs in, with the session id; null without one. */
export async function accountOf(
  kv: Deno.Kv,
  req: Request,
): Promise<{ person: string; email: string; sessionId: string } | null> {
  const sessionId = readCookie(req, ACCOUNT_COOKIE);
  if (!sessionId) return null;
  const who = await sessionPerson(kv, sessionId);
  return who && { ...who, sessionId };
}

/**
 * The Set-Cookie of a session (empty id and age 0: the one that clears it). SameSite=Lax so the
 * link opened from a mail app still finds the session on the next page.
 */
export function accountCookie(sessionId: string, secure: boolean): string {
  const maxAge = sessionId ? Math.floor(ACCOUNT_SESSION_MS / 1000) : 0;
  const parts = [`${ACCOUNT_COOKIE}=${sessionId}`, "HttpOnly", "SameSite=Lax", "Path=/"];
  parts.push(`Max-Age=${maxAge}`);
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * Sends a sign-in link to `email` (the outbox, and the SMTP server when one is set); 429 past 10
 * requests per client or 3 per person in 15 minutes. Returns the token for tests.
 */
export async function requestSignInLink(
  { kv, mailer }: { kv: Deno.Kv; mailer: Mailer },
  email: string,
  client: string,
  origin: string,
): Promise<string> {
  // Both limits in one atomic: a refusal by one counts nothing against the other.
  const rate = await hitRateLimits(kv, [
    { ...CLIENT_LIMIT, client },
    { ...ADDRESS_LIMIT, client: personOf(email) },
  ]);
  if (!rate.allowed) {
    const minutes = Math.ceil(rate.retryAfterSeconds / 60);
    throw new TooManyRequestsError(
      `Too many sign-in links asked for. Please try again in ${minutes} minute${
        minutes === 1 ? "" : "s"
      }.`,
      rate.retryAfterSeconds,
    );
  }
  const deliver = mailerDelivers(mailer);
  const { token, mailId } = await createSignInLink(kv, email, (t) => {
    const url = `${origin}/account/sign-in?token=${t}`;
    return {
      to: email.trim(),
      subject: "Your sign-in link",
      text:
        `Open this link to sign in to your account (it works once, within 15 minutes):\n\n${url}\n\nIf you did not ask for it, ignore this e-mail.`,
    };
  }, { deliver });
  if (deliver) {
    await deliverOutboxMessage(kv, mailer, mailId).catch((err) =>
      console.error(`Sign-in e-mail waits for the next delivery: ${err}`)
    );
  }
  return token;
}

/** One limit as My account shows it (minor units). */
export interface LimitView {
  cents: number | null;
  spent: number;
  /** A raise (or removal) waiting for its day, and when it applies. */
  pending: { cents: number | null; from: string } | null;
}

/** What My account shows. */
export interface AccountView {
  email: string;
  person: string;
  entries: EntrySummary[];
  limits: Record<LimitPeriod, LimitView>;
  breakUntil: string | null;
  exclusion: Exclusion | null;
}

/** The account of a signed-in person, at `now`. */
export async function accountView(
  { kv, leaderboards }: { kv: Deno.Kv; leaderboards: LeaderboardCache },
  who: { person: string; email: string },
  now = new Date(),
): Promise<AccountView> {
  const [{ record, facts }, byPerson, byEmail] = await Promise.all([
    getPerson(kv, who.person),
    listEntriesByEmail(kv, who.person),
    who.email.toLowerCase() === who.person ? [] : listEntriesByEmail(kv, who.email),
  ]);
  const seen = new Set<number>();
  const entries = [...byPerson, ...byEmail].filter((e) => !seen.has(e.id) && seen.add(e.id));
  const spent = spentPerPeriod(facts.spends, now);
  const limits = Object.fromEntries(LIMIT_PERIODS.map((period) => {
    const setting = record.settings.limits[period];
    const pending = setting?.pending && Date.parse(setting.pending.from) > now.getTime()
      ? setting.pending
      : null;
    return [period, { cents: limitInForce(setting, now), spent: spent[period], pending }];
  })) as Record<LimitPeriod, LimitView>;
  const breakUntil = record.settings.breakUntil &&
      Date.parse(record.settings.breakUntil) > now.getTime()
    ? record.settings.breakUntil
    : null;
  const exclusion = facts.exclusion && Date.parse(facts.exclusion.until) > now.getTime()
    ? facts.exclusion
    : null;
  return {
    email: who.email,
    person: who.person,
    entries: await entrySummaries(kv, leaderboards, entries),
    limits,
    breakUntil,
    exclusion,
  };
}

/** Saves the limits given (major units; null removes one; absent ones stay as they are). */
export async function saveLimits(
  kv: Deno.Kv,
  person: string,
  input: Partial<Record<LimitPeriod, number | null>>,
  now = new Date(),
): Promise<void> {
  for (const period of LIMIT_PERIODS) {
    const amount = input[period];
    if (amount === undefined) continue;
    await savePersonLimit(
      kv,
      person,
      period,
      amount === null ? null : Math.round(amount * 100),
      now,
    );
  }
}
