import type { Handlers } from "$fresh/server.ts";
import { feedMessageSchema } from "@/lib/domain/schemas/feed.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { ingestFeedMessage, verifyFeedRequest } from "@/lib/feed/ingest.ts";
import { json } from "@/lib/http/errors.ts";
import { assertJsonContentType, parseWith, readText } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * One signed message of a data provider (see lib/feed/ingest.ts): 200 with what became of it,
   * 422 with the reason when it was refused (kept for review), 401 unsigned or expired, 409 replayed.
   */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    assertJsonContentType(req);
    const body = await readText(req, 16 * 1024);
    const provider = await verifyFeedRequest(kv, req.headers, body);
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      throw new InvalidInputError("Invalid JSON body");
    }
    const outcome = await ingestFeedMessage(kv, provider, parseWith(feedMessageSchema, raw));
    if (outcome.status === "REFUSED") {
      return json({ message: outcome.reason, ...outcome }, { status: 422 });
    }
    return json(outcome);
  },
};
