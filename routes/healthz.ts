import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

/** This isolate, among the `deno serve --parallel` isolates of one server (scripts/start.ts). */
const ISOLATE = crypto.randomUUID().slice(0, 8);
const ISOLATES = Deno.env.get("SERVE_ISOLATES") ?? "1";

/**
 * Liveness and storage check: a KV write and read-back must succeed. `x-isolate` names the
 * isolate that answered and `x-isolates` how many the server runs, so a launcher can wait until
 * every isolate serves before sending load (the first ready one would otherwise keep every
 * early keep-alive connection).
 */
export const handler: Handlers<unknown, State> = {
  async GET(_req, ctx) {
    const headers = { "cache-control": "no-store", "x-isolate": ISOLATE, "x-isolates": ISOLATES };
    try {
      const { kv } = ctx.state.services;
      const stamp = crypto.randomUUID();
      const key = ["healthz", stamp];
      await kv.set(key, stamp, { expireIn: 60_000 });
      const read = await kv.get<string>(key);
      await kv.delete(key);
      if (read.value !== stamp) throw new Error("KV read-back mismatch");
      return json({ ok: true }, { headers });
    } catch (err) {
      console.error("healthz failed:", err instanceof Error ? err.message : err);
      return json({ ok: false }, { status: 503, headers });
    }
  },
};
