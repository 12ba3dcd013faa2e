import type { Handlers } from "$fresh/server.ts";
import { previewImport } from "@/lib/db/imports.ts";
import {
  IMPORT_TOO_LARGE,
  importRequestSchema,
  MAX_IMPORT_BYTES,
} from "@/lib/domain/schemas/imports.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The dry run of a file: each row as create / update / unchanged / error; nothing written. */
  async POST(req, ctx) {
    const input = await readJson(req, importRequestSchema, {
      maxBytes: MAX_IMPORT_BYTES,
      tooLarge: IMPORT_TOO_LARGE,
      // Refused by the import itself, naming the file and the row.
      notUtf8: "replace",
    });
    return json(await previewImport(ctx.state.services.kv, input));
  },
};
