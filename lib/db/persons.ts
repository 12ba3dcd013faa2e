/**
 * A person without a password: the mailbox (`personOf`) is the person. Kept here: their play
 * settings (limits, break), exclusions (their own or a regulator's), the spend ledger the limits
 * read, sign-in links and sessions. Only the SHA-256 of a link's token or a session's id is
 * stored, so a copy of the store signs nobody in.
 */
import { personOf } from "@/lib/domain/paid_entry.ts";
import {
  breakEnd,
  type Exclusion,
  exclusionEnd,
  type ExclusionPeriod,
  type LimitPeriod,
  NO_SETTINGS,
  type PlayFacts,
  playProblem,
  type PlaySettings,
  setLimit,
  type Spend,
} from "@/lib/domain/limits.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { randomHex, sha256Hex } from "@/lib/crypto/sealed.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { retryAtomic } from "@/lib/store/util.ts";
import { type OutboxInput, outboxWrite } from "./outbox.ts";

/** A sign-in link lives 15 minutes and opens one session. */
export const SIGN_IN_LINK_MS = 15 * 60_000;
/** A session lasts 30 days unless signed out. */
export const ACCOUNT_SESSION_MS = 30 * 24 * 3_600_000;

/** What is kept per person. */
export interface PersonRecord {
  settings: PlaySettings;
  /** Sessions started before this moment (ms) are over ("Sign out everywhere"). */
  sessionsValidFrom?: number;
}

interface SignInLink {
  person: string;
  email: string;
  expiresAt: number;
}

interface AccountSession {
  person: string;
  /** The address the link was sent to, as typed. */
  email: string;
  startedAt: number;
  expiresAt: number;
}

/** The keys the play decision reads for a person (the entry commit checks them too). */
export function playKeys(person: string): [Deno.KvKey, Deno.KvKey, Deno.KvKey] {
  return [keys.person(person), keys.selfExclusion(person), keys.personSpend(person)];
}

/** The play facts from the values of `playKeys`. */
export function playFactsOf(
  record: PersonRecord | null,
  exclusion: Exclusion | null,
  spends: Spend[] | null,
): PlayFacts {
  return { settings: record?.settings ?? null, exclusion, spends: spends ?? [] };
}

/** What the play decision reads for the payer of `email` (none for an unusable address). */
export async function readPlayFacts(kv: Deno.Kv, email: string): Promise<PlayFacts> {
  const person = personOf(email);
  if (!isKeyText(person)) return playFactsOf(null, null, null);
  const [record, exclusion, spends] = await kv.getMany<[PersonRecord, Exclusion, Spend[]]>(
    playKeys(person),
  );
  return playFactsOf(record.value, exclusion.value, spends.value);
}

/** Changes a person's record in one checked atomic (created on first change). */
function updatePerson(
  kv: Deno.Kv,
  person: string,
  change: (record: PersonRecord) => PersonRecord,
): Promise<PersonRecord> {
  return retryAtomic("save the person", async () => {
    const current = await kv.get<PersonRecord>(keys.person(person));
    const next = change(current.value ?? { settings: NO_SETTINGS });
    const res = await kv.atomic().check(current).set(keys.person(person), next).commit();
    return res.ok ? next : undefined;
  });
}

/** Sets one spend limit (minor units, null for none); see `setLimit` for when it applies. */
export function savePersonLimit(
  kv: Deno.Kv,
  person: string,
  period: LimitPeriod,
  cents: number | null,
  now = new Date(),
): Promise<PersonRecord> {
  return updatePerson(kv, person, (r) => ({
    ...r,
    settings: setLimit(r.settings, period, cents, now),
  }));
}

/** Starts (or lengthens) a break of `hours`. */
export function startBreak(
  kv: Deno.Kv,
  person: string,
  hours: number,
  now = new Date(),
): Promise<PersonRecord> {
  return updatePerson(kv, person, (r) => ({
    ...r,
    settings: { ...r.settings, breakUntil: breakEnd(r.settings, hours, now) },
  }));
}

/** The exclusion of a person, or null. */
export async function getExclusion(kv: Deno.Kv, person: string): Promise<Exclusion | null> {
  if (!isKeyText(person)) return null;
  return (await kv.get<Exclusion>(keys.selfExclusion(person))).value;
}

/**
 * Records an exclusion ending at `until`; an exclusion already running longer is kept (nobody
 * shortens one, not the person and not a later file). Returns the exclusion in force.
 */
export function excludePerson(
  kv: Deno.Kv,
  person: string,
  until: string,
  source: Exclusion["source"],
  now = new Date(),
): Promise<Exclusion> {
  const key = keys.selfExclusion(person);
  return retryAtomic("record the exclusion", async () => {
    const current = await kv.get<Exclusion>(key);
    if (current.value && current.value.until >= until) return current.value;
    const next: Exclusion = { until, source, since: now.toISOString() };
    return (await kv.atomic().check(current).set(key, next).commit()).ok ? next : undefined;
  });
}

/** A person's own self-exclusion for `period`. */
export function excludeSelf(
  kv: Deno.Kv,
  person: string,
  period: ExclusionPeriod,
  now = new Date(),
): Promise<Exclusion> {
  return excludePerson(kv, person, exclusionEnd(period, now), "self", now);
}

/** Every exclusion, soonest ending first; with `now`, only those still running. */
export async function listExclusions(
  kv: Deno.Kv,
  now?: Date,
): Promise<(Exclusion & { person: string })[]> {
  const out: (Exclusion & { person: string })[] = [];
  for await (const { key, value } of kv.list<Exclusion>({ prefix: keys.selfExclusions() })) {
    if (now && Date.parse(value.until) <= now.getTime()) continue;
    out.push({ ...value, person: String(key[1]) });
  }
  return out.sort((a, b) => a.until.localeCompare(b.until) || a.person.localeCompare(b.person));
}

/** The person's record and spends, for My account. */
export async function getPerson(
  kv: Deno.Kv,
  person: string,
): Promise<{ record: PersonRecord; facts: PlayFacts }> {
  const [record, exclusion, spends] = await kv.getMany<[PersonRecord, Exclusion, Spend[]]>(
    playKeys(person),
  );
  return {
    record: record.value ?? { settings: NO_SETTINGS },
    facts: playFactsOf(record.value, exclusion.value, spends.value),
  };
}

/**
 * Makes a sign-in link for `email` and writes its e-mail (`mail(token)`) in the same atomic, so
 * a link exists exactly when its message does. Returns the token and the message's outbox id.
 */
export async function createSignInLink(
  kv: Deno.Kv,
  email: string,
  mail: (token: string) => OutboxInput,
  { deliver, now = new Date() }: { deliver: boolean; now?: Date },
): Promise<{ token: string; mailId: number }> {
  const token = randomHex(32);
  const link: SignInLink = {
    person: personOf(email),
    email: email.trim(),
    expiresAt: now.getTime() + SIGN_IN_LINK_MS,
  };
  const key = keys.signInLink(await sha256Hex(token));
  const message = outboxWrite(mail(token), { deliver, about: "sign-in" });
  const res = await kv.atomic().check({ key, versionstamp: null }, ...message.checks)
    .set(key, link, { expireIn: SIGN_IN_LINK_MS }).mutate(...message.mutations).commit();
  if (!res.ok) throw new ConflictError("The sign-in link could not be made. Please try again.");
  return { token, mailId: message.id };
}

/** The answer when a link is unknown, used, or expired (one text: none tells which). */
export const LINK_INVALID =
  "This sign-in link has expired or was already used. Please ask for a new one.";

/**
 * Uses a sign-in link once: deletes it and starts a session in one atomic. Returns the session
 * id (for the cookie) and the person; a used, unknown or expired link is a ConflictError.
 */
export async function redeemSignInLink(
  kv: Deno.Kv,
  token: string,
  now = new Date(),
): Promise<{ sessionId: string; person: string; email: string }> {
  const key = keys.signInLink(await sha256Hex(token));
  const found = await kv.get<SignInLink>(key);
  if (!found.value || found.value.expiresAt <= now.getTime()) {
    throw new ConflictError(LINK_INVALID);
  }
  const sessionId = randomHex(32);
  const session: AccountSession = {
    person: found.value.person,
    email: found.value.email,
    startedAt: now.getTime(),
    expiresAt: now.getTime() + ACCOUNT_SESSION_MS,
  };
  const res = await kv.atomic().check(found).delete(key)
    .set(keys.accountSession(await sha256Hex(sessionId)), session, {
      expireIn: ACCOUNT_SESSION_MS,
    }).commit();
  // Another request used the link between the read and this commit: it is used.
  if (!res.ok) throw new ConflictError(LINK_INVALID);
  return { sessionId, person: found.value.person, email: found.value.email };
}

/** The person of a session id, or null (unknown, expired, signed out, or out everywhere). */
export async function sessionPerson(
  kv: Deno.Kv,
  sessionId: string,
  now = new Date(),
): Promise<{ person: string; email: string } | null> {
  if (!isKeyText(sessionId)) return null;
  const session = (await kv.get<AccountSession>(keys.accountSession(await sha256Hex(sessionId))))
    .value;
  if (!session || session.expiresAt <= now.getTime()) return null;
  const record = (await kv.get<PersonRecord>(keys.person(session.person))).value;
  if (session.startedAt < (record?.sessionsValidFrom ?? 0)) return null;
  return { person: session.person, email: session.email };
}

/** Ends one session. */
export async function endAccountSession(kv: Deno.Kv, sessionId: string): Promise<void> {
  if (!isKeyText(sessionId)) return;
  await kv.delete(keys.accountSession(await sha256Hex(sessionId)));
}

/** Ends every session of the person, on every device ("Sign out everywhere"). */
export async function endEverySession(kv: Deno.Kv, person: string, now = new Date()) {
  // One millisecond on, so a session started in this very millisecond ends too.
  await updatePerson(kv, person, (r) => ({ ...r, sessionsValidFrom: now.getTime() + 1 }));
}

/**
 * Throws the ConflictError (409) that stops a payment of `charge` by the payer of `email` now:
 * excluded, on a break, or past a spend limit. The entry's commit decides it again.
 */
export async function assertMayPlay(
  kv: Deno.Kv,
  email: string,
  charge: { amount: number; currency: string },
  now = new Date(),
): Promise<void> {
  const problem = playProblem(await readPlayFacts(kv, email), charge.amount, charge.currency, now);
  if (problem) {
    throw new ConflictError(problem.message, [{ path: ["email"], message: problem.message }]);
  }
}
