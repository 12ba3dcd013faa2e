/**
 * Browser side of My entries: the summaries of this browser's entries (team ids from
 * localStorage, plus any brought by an e-mailed `?add=` link) and the find-by-e-mail call.
 */
import type { EntrySummary } from "@/lib/domain/live.ts";
import { apiFetch } from "./api.ts";
import { addUserEntry, getUserEntries } from "./user_entries.ts";

/** Team ids a `?add=A,B` link brings (only plausible ids). */
function idsFromLink(search: string): string[] {
  const raw = new URLSearchParams(search).get("add") ?? "";
  return raw.split(",").map((id) => id.trim()).filter((id) => /^[\w-]{1,40}$/.test(id));
}

/**
 * Loads the summaries of this browser's entries; team ids from an e-mailed link are remembered
 * in this browser once the server knows them.
 */
export async function loadMyEntries(search: string): Promise<EntrySummary[]> {
  const added = idsFromLink(search);
  const ids = [...new Set([...getUserEntries().map((e) => e.teamId), ...added])].slice(0, 100);
  if (ids.length === 0) return [];
  const summaries = await apiFetch<EntrySummary[]>(
    `/api/my-entries?teamIds=${encodeURIComponent(ids.join(","))}`,
  );
  for (const s of summaries) {
    if (added.includes(s.teamId)) {
      addUserEntry({ competitionId: s.competition.id, teamId: s.teamId });
    }
  }
  return summaries;
}

/** Asks for the e-mail listing an address's entries; resolves to the server's answer. */
export async function requestEntriesEmail(email: string): Promise<string> {
  const answer = await apiFetch<{ message: string }>("/api/my-entries/email", {
    method: "POST",
    json: { email },
  });
  return answer.message;
}
