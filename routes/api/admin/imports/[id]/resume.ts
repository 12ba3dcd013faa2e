import type { Handlers } from "$fresh/server.ts";
import { type ImportJob, resumeImport } from "@/lib/db/imports.ts";
import { parseId } from "@/lib/http/validate.ts";
import { progressStream } from "@/lib/imports/progress.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Finishes an interrupted import from its next chunk (NDJSON progress, as apply). */
  async POST(_req, ctx) {
    const id = parseId(ctx.params.id);
    const { kv } = ctx.state.services;
    return await progressStream((progress: (job: ImportJob) => void) =>
      resumeImport(kv, id, progress)
    );
  },
};
