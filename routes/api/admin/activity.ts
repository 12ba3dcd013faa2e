import type { Handlers } from "$fresh/server.ts";
import { listAudit, parseAuditFilter } from "@/lib/db/audit.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The activity log, newest first, filtered like the Activity screen (at most 500). */
  async GET(_req, ctx) {
    const filter = parseAuditFilter(ctx.url.searchParams);
    return json(await listAudit(ctx.state.services.kv, filter));
  },
};
