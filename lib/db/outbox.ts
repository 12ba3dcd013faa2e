/**
 * The e-mail outbox: every message the app writes about money (confirmation, refund,
 * cancellation, winner, payout sent) is put here in the same atomic commit that records its
 * event as told (`queueMail`), so a crash can neither lose it nor write it twice. Without SMTP the
 * outbox is where mail ends; with SMTP each message also gets an `outbox_undelivered` marker that
 * `deliverOutbox` hands to the server and removes, retrying until it goes.
 */
import type { Mailer } from "@/lib/email/mailer.ts";
import type { GroupedWrite } from "@/lib/store/group_commit.ts";
import { createWithTimeId, timeOrderedId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { bouncedAt, markBounced } from "./notifications.ts";

export interface OutboxInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (a notification's one-click unsubscribe). */
  headers?: Record<string, string>;
}

export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
  /** What the message is about ("cancellation:pi_…"), one message per key; absent on others. */
  about?: string;
  headers?: Record<string, string>;
}

/** `about` of the notifications a person asked for: never sent to an address that bounced. */
export const NOTIFICATION_ABOUT = "notify:";

/** An undelivered marker: who is handing it to the SMTP server, and until when. */
interface Undelivered {
  claimedUntil: number;
  attempts: number;
}

/** How long one deliverer holds a message before another may try it. */
const DELIVERY_CLAIM_MS = 60_000;
/** Messages handed over per `deliverOutbox` call. */
const DELIVERY_BATCH = 200;

function messageOf(id: number, input: OutboxInput, now: Date, about?: string): OutboxMessage {
  return {
    id,
    to: input.to,
    subject: input.subject,
    text: input.text,
    html: input.html ?? null,
    createdAt: now.toISOString(),
    ...(about ? { about } : {}),
    ...(input.headers ? { headers: input.headers } : {}),
  };
}

/** Stores a message in the outbox (ids ordered by time, from no shared counter). */
export function addOutboxMessage(kv: Deno.Kv, input: OutboxInput): Promise<OutboxMessage> {
  const now = new Date();
  return createWithTimeId(keys.outboxMessage, kv, (id) => {
    const message = messageOf(id, input, now);
    return {
      record: message,
      mutations: [{ type: "set", key: keys.outboxMessage(id), value: message }],
    };
  });
}

/**
 * The check and write that store a message in the outbox, for a caller to commit in its own
 * atomic (the message is kept exactly when that atomic commits); `deliver` (an SMTP mailer) also
 * marks it for `deliverOutboxMessage`/`deliverOutbox`. Returns the message's id with them.
 */
export function outboxWrite(
  input: OutboxInput,
  { deliver = false, about }: { deliver?: boolean; about?: string } = {},
): GroupedWrite & { id: number } {
  const id = timeOrderedId();
  const key = keys.outboxMessage(id);
  const mutations: Deno.KvMutation[] = [{
    type: "set",
    key,
    value: messageOf(id, input, new Date(), about),
  }];
  if (deliver) {
    const marker: Undelivered = { claimedUntil: 0, attempts: 0 };
    mutations.push({ type: "set", key: keys.outboxUndelivered(id), value: marker });
  }
  return { id, checks: [{ key, versionstamp: null }], mutations };
}

/**
 * Adds a message to `op`, the atomic that records its event as told: the message is written
 * exactly when that atomic commits. `deliver` (an SMTP mailer is configured) also marks it for
 * `deliverOutbox`. `about` names the event, for tests and the admin.
 * @example queueMail(kv.atomic().check(entry).set(key, told), mail, { deliver: true, about: "refund:pi_1" })
 */
export function queueMail(
  op: Deno.AtomicOperation,
  input: OutboxInput,
  options: { deliver: boolean; about?: string; now?: Date; unchecked?: boolean },
): Deno.AtomicOperation {
  const id = timeOrderedId();
  const key = keys.outboxMessage(id);
  // `unchecked`: a commit that needs its 100 checks for its own records relies on the ids of
  // one process ascending (timeOrderedId), so no two messages share a key.
  if (!options.unchecked) op.check({ key, versionstamp: null });
  op.set(key, messageOf(id, input, options.now ?? new Date(), options.about));
  if (options.deliver) {
    const marker: Undelivered = { claimedUntil: 0, attempts: 0 };
    op.set(keys.outboxUndelivered(id), marker);
  }
  return op;
}

/** Whether mail written with `queueMail` must still be handed to a server by this mailer. */
export function mailerDelivers(mailer: Mailer): boolean {
  return mailer.kind !== "outbox";
}

/**
 * Hands the outbox's undelivered messages to the mailer (SMTP), each claimed for a minute so
 * two deliverers never send the same one at once; a failed send stays for the next call (the
 * payment sweep calls this every few seconds). Nothing to do for the outbox mailer. Returns how
 * many were sent.
 */
export async function deliverOutbox(
  kv: Deno.Kv,
  mailer: Mailer,
  now = Date.now(),
): Promise<number> {
  if (!mailerDelivers(mailer)) return 0;
  let sent = 0;
  const iter = kv.list<Undelivered>({ prefix: keys.outboxUndeliveredAll() }, {
    limit: DELIVERY_BATCH,
  });
  for await (const marker of iter) {
    if (await deliverMarked(kv, mailer, marker, now)) sent++;
  }
  return sent;
}

/**
 * Hands message `id` to the mailer now when it is still marked undelivered (the caller that
 * just wrote it, so its mail goes at once; a failure stays for `deliverOutbox`). True when sent.
 */
export async function deliverOutboxMessage(
  kv: Deno.Kv,
  mailer: Mailer,
  id: number,
  now = Date.now(),
): Promise<boolean> {
  const marker = await kv.get<Undelivered>(keys.outboxUndelivered(id));
  return marker.value !== null &&
    await deliverMarked(kv, mailer, marker as Deno.KvEntry<Undelivered>, now);
}

/** Claims one undelivered marker, sends its message and removes the marker; false if not sent. */
async function deliverMarked(
  kv: Deno.Kv,
  mailer: Mailer,
  marker: Deno.KvEntry<Undelivered>,
  now: number,
): Promise<boolean> {
  if (marker.value.claimedUntil > now) return false;
  const id = marker.key[1] as number;
  const message = (await kv.get<OutboxMessage>(keys.outboxMessage(id))).value;
  if (!message) {
    await kv.atomic().check(marker).delete(marker.key).commit();
    return false;
  }
  const notification = message.about?.startsWith(NOTIFICATION_ABOUT) ?? false;
  if (notification && await bouncedAt(kv, message.to)) {
    await kv.atomic().check(marker).delete(marker.key).commit();
    return false;
  }
  const claim = { claimedUntil: now + DELIVERY_CLAIM_MS, attempts: marker.value.attempts + 1 };
  const claimed = await kv.atomic().check(marker).set(marker.key, claim).commit();
  if (!claimed.ok) return false;
  try {
    await mailer.send({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? undefined,
      ...(message.headers ? { headers: message.headers } : {}),
    });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (permanentFailure(err)) {
      // A permanent refusal (5xx): the address gets no notification any more; a notification is
      // dropped, other mail (about money) stays for the operator to see and retry.
      await markBounced(kv, message.to, why);
      if (notification) {
        console.error(`Notification to ${message.to} bounced, not retried: ${why}`);
        await kv.delete(marker.key);
        return false;
      }
    }
    console.error(`E-mail to ${message.to} (${message.subject}) not sent, will retry: ${why}`);
    await kv.set(marker.key, { claimedUntil: 0, attempts: claim.attempts });
    return false;
  }
  await kv.delete(marker.key);
  return true;
}

/** An SMTP refusal that will not change on retry: a 5xx reply (nodemailer's `responseCode`). */
function permanentFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** How many messages still wait for the SMTP server. */
export async function countUndelivered(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: keys.outboxUndeliveredAll() })) n++;
  return n;
}

/** Outbox messages, newest first. */
export async function listOutbox(
  kv: Deno.Kv,
  options: { limit?: number } = {},
): Promise<OutboxMessage[]> {
  const out: OutboxMessage[] = [];
  const iter = kv.list<OutboxMessage>({ prefix: keys.outbox() }, {
    reverse: true,
    limit: options.limit,
  });
  for await (const entry of iter) out.push(entry.value);
  return out;
}
