/** The bodies of the admin import endpoints: which kind, which format, and the file's text. */
import * as z from "zod/mini";
import { IMPORT_FORMATS, IMPORT_KINDS } from "@/lib/domain/imports.ts";

export const importRequestSchema = z.object({
  kind: z.enum(IMPORT_KINDS, { error: `Kind must be one of ${IMPORT_KINDS.join(", ")}` }),
  format: z.enum(IMPORT_FORMATS, { error: "Format must be csv or json" }),
  competitionId: z.optional(z.nullable(z.number({ error: "Choose the competition" }))),
  fileName: z._default(
    z.string().check(z.maxLength(200, "File name must be at most 200 characters")),
    "upload",
  ),
  content: z.string({ error: "The file is empty" }).check(z.minLength(1, "The file is empty")),
});

/** Largest request accepted: 1 MiB (5,000 player rows: about 300 KB of CSV). */
export const MAX_IMPORT_BYTES = 1024 * 1024;
/** The 413's message for a file over MAX_IMPORT_BYTES (the Import page shows it). */
export const IMPORT_TOO_LARGE =
  "The file is too large: an import takes at most 1 MiB. Split it into smaller files.";
