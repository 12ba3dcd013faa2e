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

/** This browser's entries, and the ones an e-mailed link offers to add (not stored yet). */
export interface MyEntries {
  mine: EntrySummary[];
  offered: EntrySummary[];
}

/**
 * Loads the summaries of this browser's entries and of those a `?add=` link brings. A link's
 * entries are only offered: they are remembered once the visitor accepts (`acceptEntries`), so a
 * link cannot slip someone else's teams into this browser's list.
 */
export async function loadMyEntries(search: string): Promise<MyEntries> {
  const own = new Set(getUserEntries().map((e) => e.teamId));
  const added = idsFromLink(search).filter((id) => !own.has(id));
  const ids = [...new Set([...own, ...added])].slice(0, 100);
  if (ids.length === 0) return { mine: [], offered: [] };
  const summaries = await apiFetch<EntrySummary[]>(
    `/api/my-entries?teamIds=${encodeURIComponent(ids.join(","))}`,
  );
  return {
    mine: summaries.filter((s) => own.has(s.teamId)),
    offered: summaries.filter((s) => added.includes(s.teamId)),
  };
}

/** Remembers offered entries in this browser (the visitor said they are theirs). */
export function acceptEntries(entries: EntrySummary[]): void {
  for (const s of entries) addUserEntry({ competitionId: s.competition.id, teamId: s.teamId });
}

/** Asks for the e-mail listing an address's entries; resolves to the server's answer. */
export async function requestEntriesEmail(email: string): Promise<string> {
  const answer = await apiFetch<{ message: string }>("/api/my-entries/email", {
    method: "POST",
    json: { email },
  });
  return answer.message;
}

/**
 * Whether an entry's team may still change: upcoming, before its deadline, and not refunded (the
 * server refuses any change to a refunded entry, so the card offers none).
 */
export function entryEditable(entry: EntrySummary, now = Date.now()): boolean {
  const { status, deadline } = entry.competition;
  return !entry.refunded && status === "UPCOMING" &&
    (!deadline || new Date(deadline).getTime() > now);
}

/** Whether an entry may found a league: it still plays (not refunded, not cancelled). */
export function entryCanLead(entry: EntrySummary): boolean {
  return !entry.refunded && entry.competition.status !== "CANCELLED";
}
