import type { Handlers } from "$fresh/server.ts";
import { json } from "../lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

/** Liveness and storage check: a KV write and read-back must succeed. */
export const handler: Handlers<unknown, State> = {
  async GET(_req, ctx) {
    const headers = { "cache-control": "no-store" };
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
