import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import { probeHeaders } from "@/lib/http/isolate.ts";
import type { State } from "@/lib/services.ts";

/**
 * Liveness: the isolate answers, without touching KV (a store's hiccup must not make a
 * platform restart healthy isolates; /readyz reads the store).
 */
export const handler: Handlers<unknown, State> = {
  GET() {
    return json({ ok: true }, { headers: probeHeaders() });
  },
};
