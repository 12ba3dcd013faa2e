import type { Handlers } from "$fresh/server.ts";
import { keys } from "@/lib/store/keys.ts";
import { json } from "@/lib/http/errors.ts";
import { probeHeaders } from "@/lib/http/isolate.ts";
import type { State } from "@/lib/services.ts";

/**
 * Readiness: 200 once this isolate's start-up work (migrations, demo seed, admin) is done and
 * one KV read succeeds; 503 `{ok: false, reason}` before or when the store fails.
 */
export const handler: Handlers<unknown, State> = {
  async GET(_req, ctx) {
    const headers = probeHeaders();
    const { kv, startUp } = ctx.state.services;
    if (!startUp.done) {
      const reason = startUp.error ? `start-up failed: ${startUp.error}` : "starting";
      return json({ ok: false, reason }, { status: 503, headers });
    }
    try {
      await kv.get(keys.publicVersion());
      return json({ ok: true }, { headers });
    } catch (err) {
      console.error("readyz: KV read failed:", err instanceof Error ? err.message : err);
      return json({ ok: false, reason: "store unavailable" }, { status: 503, headers });
    }
  },
};
