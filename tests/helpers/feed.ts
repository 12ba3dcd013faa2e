/**
 * A data provider posting signed messages to the live feed (`POST /api/feed/events`) of one match,
 * as the tests of the feed and of what it leads to need.
 */
import { createFeedProvider, type FeedProvider } from "@/lib/db/feed.ts";
import { feedHeaders } from "@/lib/feed/signature.ts";
import { readJsonBody, type TestApp } from "./app.ts";

/** What the feed answered: its status and JSON body. */
export interface FeedAnswer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * Registers provider `name` (in `app.kv`, the store of the app or of a server's process) and
 * returns it with `send`, which posts one message for `matchId`
 * signed with the provider's first secret (or `secret`). A provider's re-delivery is signed anew:
 * each send is stamped a second earlier than the last, counted from one start time (not from each
 * send's own clock, which on a busy machine may have moved on by a second and stamp two sends
 * alike), so two sends of one body never share a signature.
 */
export async function feedSender(
  app: Pick<TestApp, "kv" | "request">,
  matchId: number,
  name = "acme",
): Promise<{
  provider: FeedProvider;
  send: (message: Record<string, unknown>, secret?: string) => Promise<FeedAnswer>;
}> {
  const provider = await createFeedProvider(app.kv, name);
  const start = Date.now();
  let sent = 0;
  const send = async (message: Record<string, unknown>, secret = provider.secrets[0].secret) => {
    const body = JSON.stringify({ matchId, ...message });
    const res = await app.request("/api/feed/events", {
      method: "POST",
      headers: await feedHeaders(name, secret, body, start - 1000 * sent++),
      body,
    });
    return { status: res.status, body: await readJsonBody(res) };
  };
  return { provider, send };
}
