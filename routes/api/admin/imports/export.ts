import type { Handlers } from "$fresh/server.ts";
import { exportRows } from "@/lib/db/imports.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { IMPORT_KINDS } from "@/lib/domain/imports.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** `?kind=players&format=csv[&competitionId=4]`: the records as a file that imports back unchanged. */
  async GET(_req, ctx) {
    const kind = ctx.url.searchParams.get("kind") ?? "";
    const format = ctx.url.searchParams.get("format") ?? "csv";
    if (!(IMPORT_KINDS as readonly string[]).includes(kind)) {
      throw fieldError("kind", `Kind must be one of ${IMPORT_KINDS.join(", ")}`);
    }
    if (format !== "csv" && format !== "json") {
      throw fieldError("format", "Format must be csv or json");
    }
    const cid = ctx.url.searchParams.get("competitionId");
    const body = await exportRows(
      ctx.state.services.kv,
      kind as typeof IMPORT_KINDS[number],
      format,
      cid ? parseId(cid, "competitionId") : null,
    );
    const name = `${kind}${cid ? `-${cid}` : ""}.${format}`;
    return new Response(body, {
      headers: {
        "content-type": format === "csv"
          ? "text/csv; charset=utf-8"
          : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
      },
    });
  },
};
