/**
 * Payment intents of the offline test-mode provider (ARCHITECTURE §5), kept in KV so that they
 * survive between requests like Stripe's own intents do.
 */
import type { IntentStatus } from "../payments/provider.ts";
import { NotFoundError } from "../domain/errors.ts";
import { commitGrouped } from "./group_commit.ts";
import { isKeyText } from "./keys.ts";
import { retryAtomic } from "./util.ts";

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

/** The key of one test intent (kept here: only the test provider reads or writes it). */
const intentKey = (id: string): Deno.KvKey => ["test_payment_intents", id];

/** Stores a new test intent; the id must be fresh. */
export async function saveTestIntent(kv: Deno.Kv, intent: TestIntentRecord): Promise<void> {
  const key = intentKey(intent.id);
  const ok = await commitGrouped(kv, {
    checks: [{ key, versionstamp: null }],
    mutations: [{ type: "set", key, value: intent }],
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
): Promise<TestIntentRecord> {
  return retryAtomic("update the payment", async () => {
    if (!isKeyText(id)) throw new NotFoundError("Payment not found");
    const current = await kv.get<TestIntentRecord>(intentKey(id));
    if (!current.value) throw new NotFoundError("Payment not found");
    const next = change(current.value);
    if (next === current.value) return next;
    const ok = await commitGrouped(kv, {
      checks: [current],
      mutations: [{ type: "set", key: intentKey(id), value: next }],
    });
    return ok ? next : undefined;
  });
}
