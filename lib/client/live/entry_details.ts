/**
 * The team dialog's read of GET /api/entries/{id}/details with the error texts:
 * numbers may arrive as numeric strings (empty → 0), a shape mismatch names the field, and a
 * failed request is retried once. Browser-safe.
 */
import * as z from "zod/mini";
import "@/lib/domain/zod_english.ts";
import { toNumber } from "@/lib/domain/format.ts";
import { POSITIONS } from "@/lib/domain/types.ts";

export const FETCH_FAILED = "Failed to fetch entry details";
export const UNEXPECTED_FORMAT = "Unable to process the team data. The data format is unexpected.";
export const DIALOG_FALLBACK = "Failed to load team details. Please try again.";
export const NO_PLAYERS = "No players found for this team.";

const numeric = z.pipe(
  z.transform((v) => (v === null || v === undefined ? 0 : typeof v === "string" ? toNumber(v) : v)),
  z.number(),
);

const lineSchema = z.object({
  label: z.string(),
  count: numeric,
  value: numeric,
  points: numeric,
});

const playerSchema = z.object({
  id: numeric,
  name: z.string(),
  position: z.enum(POSITIONS),
  imageUrl: z.nullish(z.string()),
  points: numeric,
  team: z.nullish(
    z.object({ name: z.string(), shortName: z.string(), logoUrl: z.nullish(z.string()) }),
  ),
  breakdown: z._default(z.array(lineSchema), []),
  /** Share of the contest's entries that picked the player (0..1), once teams are locked. */
  pickedBy: z.nullish(z.number()),
  /** "C" captain, "V" vice-captain (contests with captains). */
  captain: z.nullish(z.enum(["C", "V"])),
});

const detailsSchema = z.object({
  entry: z.object({
    id: numeric,
    teamId: z.string(),
    teamName: z.nullish(z.string()),
    points: numeric,
    totalPoints: numeric,
  }),
  competition: z.object({ id: numeric, name: z.string() }),
  players: z.array(playerSchema),
  /** Picks hidden until they lock (absent in older answers). */
  hiddenPicks: z._default(z.optional(numeric), 0),
});

export type EntryDetails = z.output<typeof detailsSchema>;
export type DetailsPlayer = EntryDetails["players"][number];
export type DetailsLine = DetailsPlayer["breakdown"][number];

/**
 * Validates an answer; a wrong field throws 'Data format error: {message} at {path}', an answer
 * that is not an object at all the 'Unable to process…' text.
 */
export function parseEntryDetails(body: unknown): EntryDetails {
  const result = detailsSchema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue || issue.path.length === 0) throw new Error(UNEXPECTED_FORMAT);
  throw new Error(`Data format error: ${issue.message} at ${issue.path.join(".")}`);
}

async function fetchOnce(id: string): Promise<EntryDetails> {
  const res = await fetch(`/api/entries/${encodeURIComponent(id)}/details`, {
    credentials: "include",
  });
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    if (res.ok) throw new Error(UNEXPECTED_FORMAT);
  }
  if (!res.ok) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new Error(typeof error === "string" && error ? error : FETCH_FAILED);
  }
  return parseEntryDetails(body);
}

/** The details of an entry by its team id, retried once on failure. */
export async function fetchEntryDetails(id: string): Promise<EntryDetails> {
  try {
    return await fetchOnce(id);
  } catch {
    return await fetchOnce(id);
  }
}
