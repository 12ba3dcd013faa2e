import type { Handlers } from "$fresh/server.ts";
import { applyImport, type ImportJob } from "@/lib/db/imports.ts";
import {
  IMPORT_TOO_LARGE,
  importRequestSchema,
  MAX_IMPORT_BYTES,
} from "@/lib/domain/schemas/imports.ts";
import { readJson } from "@/lib/http/validate.ts";
import { progressStream } from "@/lib/imports/progress.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /**
   * Applies a file, all or nothing: 400 listing the rows with errors (nothing written), else an
   * NDJSON stream of `{type: "progress", job}` lines and a last `{type: "done", job}`.
   */
  async POST(req, ctx) {
    const input = await readJson(req, importRequestSchema, {
      maxBytes: MAX_IMPORT_BYTES,
      tooLarge: IMPORT_TOO_LARGE,
      // Refused by the import itself, naming the file and the row.
      notUtf8: "replace",
    });
    const { kv } = ctx.state.services;
    return await progressStream((progress: (job: ImportJob) => void) =>
      applyImport(kv, input, ctx.state.admin.username, progress)
    );
  },
};
