/**
 * Payment intents of the offline test-mode provider, kept in KV so that they
 * survive between requests like Stripe's own intents do. An unpaid intent is listed in
 * `test_payment_intents_unpaid` by opening time, so the recovery sweep can cancel it once it has
 * been unpaid too long; a paid one is kept for good.
 */
import type { IntentStatus } from "@/lib/domain/paid_entry.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { commitGrouped } from "@/lib/store/group_commit.ts";
import { isKeyText } from "@/lib/store/keys.ts";
import { retryAtomic } from "@/lib/store/util.ts";

export interface TestIntentRecord {
  id: string;
  clientSecret: string;
  amount: number;
  currency: string;
  status: IntentStatus;
  metadata: Record<string, string>;
  refunded: boolean;
  refundReason: string | null;
  createdAt: string;
}

/** The keys of test intents (kept here: only the test provider reads or writes them). */
const intentKey = (id: string): Deno.KvKey => ["test_payment_intents", id];
const UNPAID_PREFIX: Deno.KvKey = ["test_payment_intents_unpaid"];
const unpaidKey = (intent: TestIntentRecord): Deno.KvKey => [
  ...UNPAID_PREFIX,
  Date.parse(intent.createdAt),
  intent.id,
];

/** The statuses of an intent that can still be paid (or cancelled). */
const OPEN: readonly IntentStatus[] = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
];

/** True while the intent can still be paid or cancelled. */
export function isOpenTestIntent(intent: TestIntentRecord): boolean {
  return OPEN.includes(intent.status);
}

/**
 * The writes of a test intent. An open one (and its index entry) also expires on its own after
 * `openTtlMs`, a backstop for a store nobody sweeps: it was never paid, so nothing is lost. A paid
 * one is written without expiry (a set replaces the old expiry too) and leaves the index.
 */
function intentMutations(intent: TestIntentRecord, openTtlMs: number): Deno.KvMutation[] {
  const key = intentKey(intent.id);
  if (!isOpenTestIntent(intent)) {
    return [{ type: "set", key, value: intent }, { type: "delete", key: unpaidKey(intent) }];
  }
  return [
    { type: "set", key, value: intent, expireIn: openTtlMs },
    { type: "set", key: unpaidKey(intent), value: intent.id, expireIn: openTtlMs },
  ];
}

/** Stores a new test intent; the id must be fresh. An open one expires after `openTtlMs`. */
export async function saveTestIntent(
  kv: Deno.Kv,
  intent: TestIntentRecord,
  openTtlMs: number,
): Promise<void> {
  const ok = await commitGrouped(kv, {
    checks: [{ key: intentKey(intent.id), versionstamp: null }],
    mutations: intentMutations(intent, openTtlMs),
  });
  if (!ok) throw new Error(`Test payment intent ${intent.id} already exists`);
}

/** The test intent with this id, or null. */
export async function getTestIntent(kv: Deno.Kv, id: string): Promise<TestIntentRecord | null> {
  if (!isKeyText(id)) return null;
  return (await kv.get<TestIntentRecord>(intentKey(id))).value;
}

/**
 * Changes a test intent through `change`, which sees the current record and returns the next one
 * (or the same object to leave it untouched). NotFoundError when the intent does not exist.
 */
export function updateTestIntent(
  kv: Deno.Kv,
  id: string,
  change: (current: TestIntentRecord) => TestIntentRecord,
  openTtlMs: number,
): Promise<TestIntentRecord> {
  return retryAtomic("update the payment", async () => {
    if (!isKeyText(id)) throw new NotFoundError("Payment not found");
    const current = await kv.get<TestIntentRecord>(intentKey(id));
    if (!current.value) throw new NotFoundError("Payment not found");
    const next = change(current.value);
    if (next === current.value) return next;
    const ok = await commitGrouped(kv, {
      checks: [current],
      mutations: intentMutations(next, openTtlMs),
    });
    return ok ? next : undefined;
  });
}

/**
 * Cancels a test intent that was never paid by removing it, in one atomic checked against a
 * concurrent payment: the record as it stood with status "canceled", or unchanged when it can no
 * longer be cancelled (paid); null when there is no such intent.
 */
export function cancelTestIntent(kv: Deno.Kv, id: string): Promise<TestIntentRecord | null> {
  return retryAtomic("cancel the payment", async () => {
    if (!isKeyText(id)) return null;
    const current = await kv.get<TestIntentRecord>(intentKey(id));
    if (!current.value) return null;
    if (!isOpenTestIntent(current.value)) return current.value;
    const res = await kv.atomic().check(current)
      .delete(current.key)
      .delete(unpaidKey(current.value))
      .commit();
    return res.ok ? { ...current.value, status: "canceled" as const } : undefined;
  });
}

/** The ids of up to `limit` open test intents opened before `before`, oldest first. */
export async function listUnpaidTestIntentIds(
  kv: Deno.Kv,
  before: Date,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  const end = [...UNPAID_PREFIX, before.getTime()];
  for await (const entry of kv.list<string>({ prefix: UNPAID_PREFIX, end }, { limit })) {
    ids.push(entry.value);
  }
  return ids;
}

/** Every test intent kept (paid ones for good, open ones until they expire). */
export async function listTestIntents(kv: Deno.Kv): Promise<TestIntentRecord[]> {
  const out: TestIntentRecord[] = [];
  for await (const entry of kv.list<TestIntentRecord>({ prefix: ["test_payment_intents"] })) {
    out.push(entry.value);
  }
  return out;
}
