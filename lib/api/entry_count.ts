/**
 * "Entry n of m" at checkout: n counts the entries of the typed address that this browser proves
 * it holds (their edit secrets), never the store's count for the address, which would tell anyone
 * who types another person's address whether that person has entered.
 */
import { requireCompetition } from "@/lib/db/competitions.ts";
import { getEntryByEditToken } from "@/lib/db/entry_edits.ts";
import { entriesPerPerson, personOf } from "@/lib/domain/paid_entry.ts";

/** What the checkout shows: which entry this would be, of how many one person may hold. */
export interface EntryCountView {
  entryNumber: number;
  entriesAllowed: number;
}

/**
 * Which of `email`'s entries in competition `cid` a new one would be, counting only the live
 * (not refunded) entries among those `editTokens` open; NotFoundError for an unknown competition.
 */
export async function heldEntryCount(
  kv: Deno.Kv,
  cid: number,
  email: string,
  editTokens: readonly string[],
): Promise<EntryCountView> {
  const competition = await requireCompetition(kv, cid);
  const person = personOf(email);
  const entries = await Promise.all(
    [...new Set(editTokens)].map((t) => getEntryByEditToken(kv, t)),
  );
  const held = entries.filter((e) =>
    e !== null && e.competitionId === cid && !e.refundedAt && personOf(e.email) === person
  );
  return { entryNumber: held.length + 1, entriesAllowed: entriesPerPerson(competition) };
}
