/** The e-mail outbox used when no SMTP server is configured. */
import type { GroupedWrite } from "./group_commit.ts";
import { createWithTimeId, timeOrderedId } from "./ids.ts";
import { keys } from "./keys.ts";

export interface OutboxInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface OutboxMessage {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

function outboxMessage(id: number, input: OutboxInput, createdAt: string): OutboxMessage {
  return {
    id,
    to: input.to,
    subject: input.subject,
    text: input.text,
    html: input.html ?? null,
    createdAt,
  };
}

/** Stores a message in the outbox (ids ordered by time, from no shared counter). */
export function addOutboxMessage(kv: Deno.Kv, input: OutboxInput): Promise<OutboxMessage> {
  const createdAt = new Date().toISOString();
  return createWithTimeId(keys.outboxMessage, kv, (id) => {
    const message = outboxMessage(id, input, createdAt);
    return {
      record: message,
      mutations: [{ type: "set", key: keys.outboxMessage(id), value: message }],
    };
  });
}

/**
 * The check and write that store a message in the outbox, for a caller to commit in its own
 * atomic (the message is kept exactly when that atomic commits).
 */
export function outboxWrite(input: OutboxInput): GroupedWrite {
  const id = timeOrderedId();
  const key = keys.outboxMessage(id);
  return {
    checks: [{ key, versionstamp: null }],
    mutations: [{ type: "set", key, value: outboxMessage(id, input, new Date().toISOString()) }],
  };
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
