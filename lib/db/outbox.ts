/** The e-mail outbox used when no SMTP server is configured. */
import { createWithTimeId } from "./ids.ts";
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

/** Stores a message in the outbox (ids ordered by time, from no shared counter). */
export function addOutboxMessage(kv: Deno.Kv, input: OutboxInput): Promise<OutboxMessage> {
  const createdAt = new Date().toISOString();
  return createWithTimeId(keys.outboxMessage, kv, (id) => {
    const message: OutboxMessage = {
      id,
      to: input.to,
      subject: input.subject,
      text: input.text,
      html: input.html ?? null,
      createdAt,
    };
    return {
      record: message,
      mutations: [{ type: "set", key: keys.outboxMessage(id), value: message }],
    };
  });
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
