import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { Button } from "@/components/ui/Button.tsx";
import { listExclusions } from "@/lib/db/persons.ts";
import { type ExclusionImport, importExclusions } from "@/lib/db/self_exclusions.ts";
import type { Exclusion } from "@/lib/domain/limits.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import { DomainError } from "@/lib/domain/errors.ts";
import { MAX_IMPORT_BYTES } from "@/lib/domain/schemas/imports.ts";
import { statusOf } from "@/lib/http/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import type { AdminState } from "@/lib/services.ts";

interface Data {
  exclusions: (Exclusion & { person: string })[];
  result: ExclusionImport | null;
  error: string | null;
}

export const handler: Handlers<Data, AdminState> = {
  async GET(_req, ctx) {
    const exclusions = await listExclusions(ctx.state.services.kv, new Date());
    return ctx.render({ exclusions, result: null, error: null });
  },
  /** The upload form: a CSV file (or pasted text) with columns email, until. */
  async POST(req, ctx) {
    if (isCrossOriginRequest(req)) return new Response("Forbidden", { status: 403 });
    const kv = ctx.state.services.kv;
    const form = await req.formData();
    const file = form.get("file");
    const pasted = form.get("content");
    if (file instanceof File && file.size > MAX_IMPORT_BYTES) {
      const exclusions = await listExclusions(kv, new Date());
      const error = "The file is over 1 MiB: split it and import each part.";
      return ctx.render({ exclusions, result: null, error }, { status: 413 });
    }
    const content = file instanceof File && file.size > 0
      ? await file.text()
      : typeof pasted === "string"
      ? pasted
      : "";
    try {
      const result = await importExclusions(kv, content);
      return ctx.render({ exclusions: await listExclusions(kv, new Date()), result, error: null });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const exclusions = await listExclusions(kv, new Date());
      return ctx.render({ exclusions, result: null, error: err.message }, {
        status: statusOf(err),
      });
    }
  },
};

/** Self-excluded persons (their own and regulators' lists), and the regulator file's import. */
export default function SelfExclusionsPage({ data }: PageProps<Data>) {
  const { exclusions, result, error } = data;
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <Head>
        <title>Self-exclusions · Admin</title>
      </Head>
      <h1 className="text-2xl font-bold">Self-exclusions</h1>
      <form
        method="post"
        encType="multipart/form-data"
        className="space-y-3 rounded-lg border border-border p-4"
      >
        <p className="text-sm">
          Import a regulator's list: a CSV file with the columns <code>email,until</code>{" "}
          (a date like 2027-05-31, excluded to the end of that day UTC). A bad row refuses the whole
          file. Nobody's exclusion is ever shortened.
        </p>
        <input type="file" name="file" accept=".csv,text/csv" aria-label="CSV file" />
        <Button type="submit">Import</Button>
      </form>
      {result && (
        <p role="status" className="rounded-md bg-muted px-4 py-3 text-sm">
          Imported {result.rows} rows: {result.excluded} excluded, {result.kept}{" "}
          already excluded for longer.
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-destructive/10 px-4 py-3 text-sm text-destructive">
          {error}
        </p>
      )}
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-border">
            <th className="py-2">Person</th>
            <th>Excluded until</th>
            <th>By</th>
          </tr>
        </thead>
        <tbody>
          {exclusions.map((x) => (
            <tr key={x.person} className="border-b border-border">
              <td className="py-2">{x.person}</td>
              <td>{formatWhen(x.until, "UTC", { year: true })}</td>
              <td>{x.source === "self" ? "Themselves" : "Regulator's list"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {exclusions.length === 0 && (
        <p className="text-sm text-muted-foreground">Nobody is excluded.</p>
      )}
    </main>
  );
}
