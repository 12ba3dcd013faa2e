/** The Import page's calls: preview a file, apply it with progress, and the import history. */
import { adminFetch } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import type {
  ImportFormat as Format,
  ImportJob,
  ImportKind as Kind,
  ImportPreview as Preview,
  ImportRequest as ImportFile,
} from "@/lib/domain/imports.ts";

export type { Format, ImportFile, ImportJob, Kind, Preview };
export type { RowAction } from "@/lib/domain/imports.ts";

export const KINDS = [
  { value: "clubs", label: "Clubs" },
  { value: "players", label: "Players" },
  { value: "matches", label: "Matches" },
  { value: "competition-players", label: "A competition's players and salaries" },
] as const satisfies readonly { value: Kind; label: string }[];
/** The format a file's name says (JSON for .json, CSV otherwise). */
export function formatOf(fileName: string): Format {
  return fileName.toLowerCase().endsWith(".json") ? "json" : "csv";
}

/**
 * A chosen file's text, read as UTF-8; throws an Error naming the file when it is not UTF-8 (a
 * Latin-1 "Müller" would otherwise arrive as "M\uFFFDller").
 */
export async function readFileText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${file.name} is not valid UTF-8 text: save it as UTF-8 and try again`);
  }
}

/** The dry run of a file. */
export function previewFile(file: ImportFile): Promise<Preview> {
  return adminFetch<Preview>("/api/admin/imports/preview", { method: "POST", body: file });
}

/**
 * Applies a file (or resumes import `resumeId`), calling `onProgress` with each chunk applied;
 * resolves with the finished import. A refused file throws the API's error.
 */
export async function applyFile(
  file: ImportFile | null,
  onProgress: (job: ImportJob) => void,
  resumeId?: number,
): Promise<ImportJob> {
  const path = resumeId ? `/api/admin/imports/${resumeId}/resume` : "/api/admin/imports/apply";
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: file ? { "content-type": "application/json" } : {},
    body: file ? JSON.stringify(file) : undefined,
  });
  if (!res.ok || !res.body) throw new ApiError(res.status, await res.text(), res.statusText);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let last: ImportJob | null = null;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines.filter(Boolean)) {
      const message = JSON.parse(line) as { type: string; job?: ImportJob; message?: string };
      if (message.type === "error") throw new Error(message.message);
      if (message.job) (last = message.job, onProgress(message.job));
    }
  }
  if (!last) throw new Error("The import ended without an answer");
  return last;
}

/** The path of an export file. */
export function exportPath(kind: Kind, format: Format, competitionId: number | null): string {
  const cid = kind === "competition-players" && competitionId
    ? `&competitionId=${competitionId}`
    : "";
  return `/api/admin/imports/export?kind=${kind}&format=${format}${cid}`;
}
