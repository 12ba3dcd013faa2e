/**
 * The records of the live event feed: its providers and their signing secrets, the signatures
 * already accepted, what became of each provider event, a log of deliveries and the period each
 * match is in. The processing itself lives in `lib/feed/ingest.ts`.
 */
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { timeOrderedId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { listValues, retryAtomic } from "@/lib/store/util.ts";
import type { FeedEventStatus, FeedLogEntry, FeedProvider, FeedSecret } from "@/lib/domain/feed.ts";

export type { FeedEventStatus, FeedLogEntry, FeedProvider, FeedSecret };

export interface FeedEventRecord {
  provider: string;
  /** The provider's event id. */
  id: string;
  /** The provider's version of the event: a correction carries a higher one. */
  version: number;
  withdrawn: boolean;
  matchId: number;
  type: string;
  playerId: number | null;
  minute: number | null;
  status: FeedEventStatus;
  reason: string | null;
  /** The game event made from it in each competition of the match, by competition id. */
  applied: Record<string, { eventId: number; version: number }>;
  /** False while its changes are being applied (a re-delivery finishes them). */
  complete: boolean;
  receivedAt: string;
  updatedAt: string;
}

/** The period of a match as the feed told it. */
export interface FeedMatchState {
  matchId: number;
  period: "FIRST_HALF" | "HALF_TIME" | "SECOND_HALF" | "FULL_TIME";
  updatedAt: string;
}

const LOG_DAYS = 14;
/** How long an accepted signature is remembered: longer than the 5-minute window it is valid in. */
const SIGNATURE_MEMORY_MS = 15 * 60 * 1000;

function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Adds a provider with a fresh secret; ConflictError when the name is taken. */
export function createFeedProvider(
  kv: Deno.Kv,
  name: string,
  now = new Date(),
): Promise<FeedProvider> {
  if (!PROVIDER_NAME.test(name)) {
    throw fieldError(
      "name",
      "Name must be 1–40 lower-case letters, digits, '-' or '_', starting with a letter or digit",
    );
  }
  return retryAtomic("add the provider", async () => {
    const entry = await kv.get<FeedProvider>(keys.feedProvider(name));
    if (entry.value) throw new ConflictError(`Provider "${name}" already exists`);
    const provider: FeedProvider = {
      name,
      secrets: [{ secret: newSecret(), createdAt: now.toISOString() }],
      createdAt: now.toISOString(),
    };
    const res = await kv.atomic().check(entry).set(entry.key, provider).commit();
    return res.ok ? provider : undefined;
  });
}

/** The provider with this name, or null. */
export async function getFeedProvider(kv: Deno.Kv, name: string): Promise<FeedProvider | null> {
  return (await kv.get<FeedProvider>(keys.feedProvider(name))).value;
}

/** Every provider, by name. */
export function listFeedProviders(kv: Deno.Kv): Promise<FeedProvider[]> {
  return listValues<FeedProvider>(kv, keys.feedProviders());
}

/**
 * Rotates a provider's secret without downtime: a new secret becomes current and the current one
 * stays valid beside it (the one before that is dropped) until `retireFeedSecret`.
 */
export function rotateFeedSecret(
  kv: Deno.Kv,
  name: string,
  now = new Date(),
): Promise<FeedProvider> {
  return changeProvider(kv, name, (p) => ({
    ...p,
    secrets: [{ secret: newSecret(), createdAt: now.toISOString() }, p.secrets[0]],
  }));
}

/** Ends a rotation: only the current secret stays valid. */
export function retireFeedSecret(kv: Deno.Kv, name: string): Promise<FeedProvider> {
  return changeProvider(kv, name, (p) => ({ ...p, secrets: p.secrets.slice(0, 1) }));
}

function changeProvider(
  kv: Deno.Kv,
  name: string,
  change: (provider: FeedProvider) => FeedProvider,
): Promise<FeedProvider> {
  if (!PROVIDER_NAME.test(name)) throw new NotFoundError("Provider not found");
  return retryAtomic("change the provider", async () => {
    const entry = await kv.get<FeedProvider>(keys.feedProvider(name));
    if (!entry.value) throw new NotFoundError("Provider not found");
    const provider = change(entry.value);
    const res = await kv.atomic().check(entry).set(entry.key, provider).commit();
    return res.ok ? provider : undefined;
  });
}

/**
 * Remembers an accepted signature; false when it was accepted before (a replayed request).
 * Atomic, so of two copies of one request arriving together only one gets true.
 */
export async function claimFeedSignature(
  kv: Deno.Kv,
  provider: string,
  signature: string,
): Promise<boolean> {
  const key = keys.feedSignature(provider, signature);
  const res = await kv.atomic().check({ key, versionstamp: null })
    .set(key, true, { expireIn: SIGNATURE_MEMORY_MS }).commit();
  return res.ok;
}

/** What became of a provider event, with its versionstamp (null value when never received). */
export function getFeedEventEntry(
  kv: Deno.Kv,
  provider: string,
  eventId: string,
): Promise<Deno.KvEntryMaybe<FeedEventRecord>> {
  return kv.get<FeedEventRecord>(keys.feedEvent(provider, eventId));
}

/** Saves a provider event's record unless it changed since `entry` was read (then false). */
export async function saveFeedEvent(
  kv: Deno.Kv,
  entry: Deno.KvEntryMaybe<FeedEventRecord>,
  record: FeedEventRecord,
): Promise<boolean> {
  const res = await kv.atomic().check(entry).set(entry.key, record).commit();
  return res.ok;
}

/** Adds one delivery to the feed's log (kept 14 days). */
export async function logFeedDelivery(
  kv: Deno.Kv,
  entry: Omit<FeedLogEntry, "id">,
): Promise<void> {
  const id = timeOrderedId();
  await kv.set(keys.feedLogEntry(id), { id, ...entry }, {
    expireIn: LOG_DAYS * 24 * 60 * 60 * 1000,
  });
}

/** The newest deliveries first; `refusedOnly` keeps the REFUSED ones. */
export async function listFeedLog(
  kv: Deno.Kv,
  { limit = 50, refusedOnly = false }: { limit?: number; refusedOnly?: boolean } = {},
): Promise<FeedLogEntry[]> {
  const out: FeedLogEntry[] = [];
  for await (const entry of kv.list<FeedLogEntry>({ prefix: keys.feedLog() }, { reverse: true })) {
    if (refusedOnly && entry.value.outcome !== "REFUSED") continue;
    out.push(entry.value);
    if (out.length >= limit) break;
  }
  return out;
}

/** The period of a match as the feed told it, or null. */
export async function getFeedMatchState(
  kv: Deno.Kv,
  matchId: number,
): Promise<FeedMatchState | null> {
  return (await kv.get<FeedMatchState>(keys.feedMatch(matchId))).value;
}

/** Saves the period of a match. */
export async function setFeedMatchState(kv: Deno.Kv, state: FeedMatchState): Promise<void> {
  await kv.set(keys.feedMatch(state.matchId), state);
}
