import type { Handlers } from "$fresh/server.ts";
import { auditCsv, listAudit, parseAuditFilter } from "@/lib/db/audit.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The activity log (same filters as the screen) as a CSV download. */
  async GET(_req, ctx) {
    const entries = await listAudit(ctx.state.services.kv, parseAuditFilter(ctx.url.searchParams));
    return new Response(auditCsv(entries), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="activity.csv"',
        "cache-control": "no-store",
      },
    });
  },
};
