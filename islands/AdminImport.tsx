import { useState } from "react";
import { Badge, type BadgeVariant } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Card } from "@/components/ui/Card.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { errorText } from "@/lib/client/admin/admin_api.ts";
import {
  applyFile,
  exportPath,
  type Format,
  formatOf,
  type ImportFile,
  type ImportJob,
  type Kind,
  KINDS,
  type Preview,
  previewFile,
  readFileText,
  type RowAction,
} from "@/lib/client/admin/imports.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import { toast, toastError } from "@/lib/client/toast.ts";

const ACTION_VARIANT: Record<RowAction, BadgeVariant> = {
  create: "success",
  update: "default",
  unchanged: "outline",
  error: "destructive",
};

function kindLabel(kind: string): string {
  return KINDS.find((k) => k.value === kind)?.label ?? kind;
}

function Counts({ counts }: { counts: Record<RowAction, number> }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Rows by action">
      {(Object.keys(ACTION_VARIANT) as RowAction[]).map((action) => (
        <li key={action}>
          <Badge variant={counts[action] === 0 ? "outline" : ACTION_VARIANT[action]}>
            {counts[action]} {action}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

function PreviewTable({ preview }: { preview: Preview }) {
  return (
    <div className="max-h-[480px] overflow-auto rounded-lg border border-border">
      <table className="w-full text-sm" aria-label="Preview">
        <thead className="sticky top-0 bg-muted text-left">
          <tr>
            <th className="px-3 py-2 font-medium">Row</th>
            <th className="px-3 py-2 font-medium">Id</th>
            <th className="px-3 py-2 font-medium">Action</th>
            <th className="px-3 py-2 font-medium">Details</th>
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((r) => (
            <tr key={r.row} className="border-t border-border align-top" data-action={r.action}>
              <td className="px-3 py-2 tabular-nums">{r.row}</td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{r.ref || "—"}</td>
              <td className="px-3 py-2">
                <Badge variant={ACTION_VARIANT[r.action]}>{r.action}</Badge>
              </td>
              <td className="min-w-[10rem] px-3 py-2">
                {r.errors.map((e, i) => (
                  <p key={i} className="text-destructive">
                    <span className="font-medium">{e.field}</span>: {e.reason}
                  </p>
                ))}
                {r.changes.length > 0 && <p>Changes: {r.changes.join(", ")}</p>}
                {r.note && <p className="text-muted-foreground">{r.note}</p>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Progress({ job }: { job: ImportJob }) {
  const pct = job.chunks === 0 ? 100 : Math.round((job.chunksDone / job.chunks) * 100);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm" aria-live="polite">
        {job.status === "APPLYING" ? `Applying… ${pct}%` : `${job.status}: ${job.rows} rows`}
      </p>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

function History(
  { jobs, onResume }: { jobs: ImportJob[]; onResume: (job: ImportJob) => void },
) {
  if (jobs.length === 0) {
    return <EmptyState title="No imports yet." description="Applied files are listed here." />;
  }
  return (
    <ul className="flex flex-col gap-2" aria-label="Import history">
      {jobs.map((job) => (
        <li
          key={job.id}
          className="flex flex-col gap-1 rounded-lg border border-border bg-background p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <div className="flex min-w-0 flex-col">
            <span className="break-all font-medium">{job.fileName}</span>
            <span className="text-muted-foreground">
              {kindLabel(job.kind)} · {job.rows} rows · by {job.admin} ·{" "}
              {formatAdminDate(job.createdAt)}
            </span>
            {job.error && <span className="text-destructive">{job.error}</span>}
          </div>
          <div className="flex items-center gap-2">
            <Badge
              variant={job.status === "APPLIED"
                ? "success"
                : job.status === "FAILED"
                ? "destructive"
                : "secondary"}
            >
              {job.status}
            </Badge>
            {(job.status === "APPLYING" || job.status === "UNDOING") && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => onResume(job)}
              >
                Resume
              </Button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Import page: upload a file, preview every row, apply it with progress; history; export. */
export default function AdminImport() {
  const history = useAdminData<ImportJob[]>("/api/admin/imports");
  const competitions = useAdminData<CompetitionRow[]>("/api/admin/competitions");
  const [kind, setKind] = useState<Kind>("players");
  const [competitionId, setCompetitionId] = useState<number | null>(null);
  const [file, setFile] = useState<ImportFile | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  /** Why the chosen file cannot be previewed (not UTF-8, too large, …). */
  const [problem, setProblem] = useState<string | null>(null);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [exportFormat, setExportFormat] = useState<Format>("csv");
  const needsCompetition = kind === "competition-players";

  const choose = async (picked: File | undefined) => {
    setPreview(null);
    setJob(null);
    setProblem(null);
    setFile(null);
    if (!picked) return;
    let content: string;
    try {
      content = await readFileText(picked);
    } catch (err) {
      return setProblem((err as Error).message);
    }
    const next: ImportFile = {
      kind,
      format: formatOf(picked.name),
      competitionId: needsCompetition ? competitionId : null,
      fileName: picked.name,
      content,
    };
    setFile(next);
    setBusy(true);
    try {
      setPreview(await previewFile(next));
    } catch (err) {
      // Shown in place (a 413's "too large" message, a refused file), not only as a toast.
      setProblem(errorText(err, "The file could not be previewed."));
    } finally {
      setBusy(false);
    }
  };

  const apply = async (resume?: ImportJob) => {
    setBusy(true);
    try {
      const done = await applyFile(resume ? null : file, setJob, resume?.id);
      toast({
        title: done.status === "APPLIED" ? "Import applied" : "Import stopped",
        description: done.status === "APPLIED"
          ? `${done.rows} rows of ${done.fileName}`
          : done.error ?? "",
        variant: done.status === "APPLIED" ? "default" : "destructive",
      });
      if (done.status === "APPLIED") setPreview(null);
      await history.reload();
    } catch (err) {
      toastError(errorText(err, err instanceof Error ? err.message : "The import failed."));
    } finally {
      setBusy(false);
    }
  };

  const canApply = preview !== null && preview.counts.error === 0 && !busy &&
    preview.counts.create + preview.counts.update > 0;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Import"
        description="Clubs, players, matches and salaries from CSV or JSON: preview every row, then apply the whole file."
        actions={<Button variant="outline" href="/admin/dashboard">Back to Dashboard</Button>}
      />
      <Card className="flex flex-col gap-4 p-4 sm:p-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-2">
            <Label htmlFor="import-kind">What the file holds</Label>
            <Select
              id="import-kind"
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value as Kind);
                setPreview(null);
                setFile(null);
              }}
            >
              {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
            </Select>
          </div>
          {needsCompetition && (
            <div className="flex flex-col gap-2">
              <Label htmlFor="import-competition">Competition</Label>
              <Select
                id="import-competition"
                value={competitionId ?? ""}
                onChange={(e) => setCompetitionId(Number(e.currentTarget.value) || null)}
              >
                <option value="">Choose a competition</option>
                {(competitions.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>{c.name}</option>
                ))}
              </Select>
            </div>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="import-file">File (.csv or .json)</Label>
          <input
            id="import-file"
            type="file"
            accept=".csv,.json,text/csv,application/json"
            disabled={busy || (needsCompetition && !competitionId)}
            className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-background file:px-3 file:py-2 file:text-sm"
            onChange={(e) => void choose(e.currentTarget.files?.[0])}
          />
          <p className="text-xs text-muted-foreground">
            Rows are matched by their externalId (or #id for records made by hand): the same file
            twice changes nothing. Salaries of players already in paid entries are kept.
          </p>
        </div>
        {busy && !preview && <TableSkeleton rows={3} label="Reading the file" />}
        {problem && <p className="text-sm font-medium text-destructive" role="alert">{problem}</p>}
        {preview && (
          <section className="flex flex-col gap-3" aria-labelledby="preview-heading">
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <h2 id="preview-heading" className="text-lg font-semibold">
                Preview of {file?.fileName}
              </h2>
              <Counts counts={preview.counts} />
            </div>
            {preview.counts.error > 0 && (
              <p className="text-sm font-medium text-destructive" role="alert">
                Fix the rows with errors: a file is applied whole or not at all.
              </p>
            )}
            <PreviewTable preview={preview} />
            <div className="flex flex-wrap items-center gap-3">
              <Button disabled={!canApply} onClick={() => void apply()}>Apply Import</Button>
              {preview.counts.error === 0 && preview.counts.create + preview.counts.update === 0 &&
                <span className="text-sm text-muted-foreground">Nothing to change.</span>}
            </div>
          </section>
        )}
        {job && <Progress job={job} />}
      </Card>
      <Card className="flex flex-col gap-3 p-4 sm:p-6">
        <h2 className="text-lg font-semibold">Export</h2>
        <p className="text-sm text-muted-foreground">
          The same columns as an import: an export imports back unchanged.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-2">
            <Label htmlFor="export-format">Format</Label>
            <Select
              id="export-format"
              value={exportFormat}
              onChange={(e) => setExportFormat(e.currentTarget.value as Format)}
            >
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </Select>
          </div>
          <Button
            variant="outline"
            href={exportPath(kind, exportFormat, competitionId)}
            disabled={needsCompetition && !competitionId}
          >
            Export {kindLabel(kind)}
          </Button>
        </div>
      </Card>
      <section className="flex flex-col gap-3" aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-lg font-semibold">History</h2>
        {history.loading && !history.data && <TableSkeleton rows={3} label="Loading imports" />}
        {history.error && !history.data
          ? <ErrorState message="Failed to load the imports. Please try again." />
          : null}
        {history.data && <History jobs={history.data} onResume={(j) => void apply(j)} />}
      </section>
    </div>
  );
}
