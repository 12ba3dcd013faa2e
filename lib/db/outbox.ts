/**
 * The e-mail outbox: every message the app writes about money (confirmation, refund,
 * cancellation, winner, payout sent) is put here in the same atomic commit that records its
 * event as told (`queueMail`), so a crash can neither lose it nor write it twice. Without SMTP the
 * outbox is where mail ends; with SMTP each message also gets an `outbox_undelivered` marker that
 * `deliverOutbox` hands to the server and removes, retrying until it goes.
 */
import type { Mailer } from "@/lib/domain/mail.ts";
import type { GroupedWrite } from "@/lib/store/group_commit.ts";
import { createWithTimeId, timeOrderedId } from "@/lib/store/ids.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { bouncedAt, markBounced } from "./notifications.ts";
import { auditInto, type AuditStamp } from "./audit.ts";

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

/** The recipient as the outbox indexes it: what support types in, whatever its case. */
export function recipientKeyText(to: string): string {
  return to.trim().toLowerCase();
}

/** The index entry that finds message `id` by its recipient (none for an unusable address). */
function recipientIndex(id: number, to: string): Deno.KvMutation[] {
  const text = recipientKeyText(to);
  return isKeyText(text)
    ? [{ type: "set", key: keys.outboxToRecipient(text, id), value: true }]
    : [];
}

/** Stores a message in the outbox (ids ordered by time, from no shared counter). */
export function addOutboxMessage(kv: Deno.Kv, input: OutboxInput): Promise<OutboxMessage> {
  const now = new Date();
  return createWithTimeId(keys.outboxMessage, kv, (id) => {
    const message = messageOf(id, input, now);
    return {
      record: message,
      mutations: [
        { type: "set", key: keys.outboxMessage(id), value: message },
        ...recipientIndex(id, input.to),
      ],
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
  }, ...recipientIndex(id, input.to)];
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
  for (const index of recipientIndex(id, input.to)) op.set(index.key, true);
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

/**
 * Where a message stands: kept (no SMTP: the outbox is where mail ends), waiting for the SMTP
 * server, sent, or bounced (the server refused its address for good).
 */
export type OutboxState = "kept" | "waiting" | "sent" | "bounced";

/** A message as support's Outbox screen shows it. */
export interface OutboxView extends OutboxMessage {
  state: OutboxState;
  /** Hand-overs tried so far while waiting. */
  attempts: number;
}

/**
 * The last `limit` messages to `address` (any case), newest first, each with its delivery state:
 * what support needs to answer "did you send me my confirmation / my league's code?".
 */
export async function listOutboxTo(
  kv: Deno.Kv,
  mailer: Mailer,
  address: string,
  limit = 50,
): Promise<OutboxView[]> {
  const text = recipientKeyText(address);
  if (!isKeyText(text)) return [];
  const ids: number[] = [];
  const iter = kv.list({ prefix: keys.outboxOfRecipient(text) }, { reverse: true, limit });
  for await (const entry of iter) ids.push(entry.key[2] as number);
  const delivers = mailerDelivers(mailer);
  const bounces = new Map<string, string | null>();
  const bouncedFor = async (to: string) => {
    if (!bounces.has(to)) bounces.set(to, await bouncedAt(kv, to));
    return bounces.get(to)!;
  };
  const out: OutboxView[] = [];
  for (let i = 0; i < ids.length; i += 5) {
    const batch = ids.slice(i, i + 5);
    const got = await kv.getMany([
      ...batch.map((id) => keys.outboxMessage(id)),
      ...batch.map((id) => keys.outboxUndelivered(id)),
    ]);
    for (let j = 0; j < batch.length; j++) {
      const message = got[j].value as OutboxMessage | null;
      if (!message) continue;
      const marker = got[batch.length + j].value as Undelivered | null;
      const bounced = delivers && !marker ? await bouncedFor(message.to) : null;
      // Once the server refused an address for good, nothing after (and not that one) reached it.
      const state: OutboxState = !delivers
        ? "kept"
        : marker
        ? "waiting"
        : bounced
        ? "bounced"
        : "sent";
      out.push({ ...message, state, attempts: marker?.attempts ?? 0 });
    }
  }
  return out;
}

/**
 * Support sends message `id` again, as a new message (the first stays as it was), marked for the
 * SMTP server when there is one and handed to it at once; returns the new message. An address that
 * bounced is tried again too: support resends on the person's word that it works now.
 */
export async function resendOutboxMessage(
  kv: Deno.Kv,
  mailer: Mailer,
  id: number,
  stamp?: AuditStamp,
): Promise<OutboxMessage | null> {
  const original = (await kv.get<OutboxMessage>(keys.outboxMessage(id))).value;
  if (!original) return null;
  const deliver = mailerDelivers(mailer);
  const write = outboxWrite({
    to: original.to,
    subject: original.subject,
    text: original.text,
    ...(original.html ? { html: original.html } : {}),
    ...(original.headers ? { headers: original.headers } : {}),
  }, { deliver, about: `resend:${id}` });
  const op = kv.atomic();
  for (const check of write.checks) op.check(check);
  for (const m of write.mutations) if (m.type === "set") op.set(m.key, m.value);
  auditInto(op, stamp, {
    competitionId: null,
    before: null,
    after: { resentMessage: id, to: original.to, subject: original.subject },
  });
  if (!(await op.commit()).ok) return null;
  if (deliver) await deliverOutboxMessage(kv, mailer, write.id);
  return (await kv.get<OutboxMessage>(keys.outboxMessage(write.id))).value;
}

/** Indexes the messages written before the recipient index existed (a one-time migration). */
export async function migrateOutboxRecipients(kv: Deno.Kv): Promise<void> {
  let op = kv.atomic();
  let size = 0;
  for await (const entry of kv.list<OutboxMessage>({ prefix: keys.outbox() })) {
    for (const index of recipientIndex(entry.value.id, entry.value.to)) {
      op.set(index.key, true);
      if (++size === 500) {
        await op.commit();
        op = kv.atomic();
        size = 0;
      }
    }
  }
  if (size > 0) await op.commit();
}
