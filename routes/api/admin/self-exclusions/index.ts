import type { Handlers } from "$fresh/server.ts";
import { listExclusions } from "@/lib/db/persons.ts";
import { importExclusions } from "@/lib/db/self_exclusions.ts";
import { exclusionFileSchema } from "@/lib/domain/schemas/account.ts";
import { MAX_IMPORT_BYTES } from "@/lib/domain/schemas/imports.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /** Exclusions still running, soonest ending first: {exclusions: [{person, until, source}]}. */
  async GET(_req, ctx) {
    return json({ exclusions: await listExclusions(ctx.state.services.kv, new Date()) });
  },
  /** {content: CSV with columns email, until} → {rows, excluded, kept}; 400 names a bad row; 413 past 1 MiB (split a longer list). */
  async POST(req, ctx) {
    const { content } = await readJson(req, exclusionFileSchema, { maxBytes: MAX_IMPORT_BYTES });
    return json(await importExclusions(ctx.state.services.kv, content));
  },
};
