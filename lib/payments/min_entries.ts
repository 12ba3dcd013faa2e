/**
 * A competition may need a minimum number of entries to run: at its deadline, one below its
 * `minEntries` is cancelled and every entrant refunded automatically (the cancellation job), with
 * the reason told to each of them. The periodic sweep calls `cancelUnderfilled`.
 */
import { listCompetitions } from "@/lib/db/competitions.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { runCancellation, startCancellation } from "./cancellation.ts";
import type { CheckoutDeps } from "./checkout.ts";

/** Why a competition is cancelled for want of entries, or null when it runs. */
export function underfilledReason(competition: Competition, now: Date): string | null {
  const min = competition.minEntries;
  if (!min || competition.status !== "UPCOMING") return null;
  if (Date.parse(competition.deadline) > now.getTime()) return null;
  if (competition.currentEntries >= min) return null;
  return `Not enough entries: ${competition.currentEntries} of the ${min} needed.`;
}

/** Cancels (and refunds) every competition past its deadline below its minimum; how many. */
export async function cancelUnderfilled(
  deps: CheckoutDeps,
  origin: string,
  now = new Date(),
): Promise<number> {
  let cancelled = 0;
  for (const competition of await listCompetitions(deps.kv)) {
    const reason = underfilledReason(competition, now);
    if (!reason) continue;
    await startCancellation(deps, competition.id, reason, origin, now);
    await runCancellation(deps, competition.id, `min-entries-${crypto.randomUUID()}`);
    cancelled++;
  }
  return cancelled;
}
