/**
 * The freeze of a template contest's pool at its deadline. A growing pool's prize table is
 * computed from the entries the competition holds when it is frozen and stored as its prize
 * structure together with the pool, in one atomic, so a refund after that changes neither
 * silently; payouts (standings.ts) read that stored table. Kept apart from competitions.ts so
 * the award of prizes can freeze a pool first.
 */
import { frozenPrizes } from "@/lib/domain/formats.ts";
import type { Competition, PrizeStructure } from "@/lib/domain/types.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { listValues, retryAtomic } from "@/lib/store/util.ts";

/** Whether the minimum-entries job will cancel it (frozen then would be pointless). */
function awaitsCancellation(c: Competition): boolean {
  return c.status === "UPCOMING" && !!c.minEntries && c.currentEntries < c.minEntries;
}

/**
 * Freezes a template contest's pool and prize table from its entries now, once: after its
 * deadline (or at once with `force`, when it is being completed), unless it is cancelled or
 * about to be for want of entries. One atomic checked against the competition read: prizePool,
 * `format.frozenAt` and the whole prize structure change together. Returns the competition as
 * frozen, or null when there was nothing to do.
 */
export function freezeContestPool(
  kv: Deno.Kv,
  cid: number,
  now = new Date(),
  { force = false } = {},
): Promise<Competition | null> {
  return retryAtomic("freeze the prize pool", async () => {
    const entry = await kv.get<Competition>(keys.competition(cid));
    const c = entry.value;
    if (!c?.format || c.format.frozenAt || c.status === "CANCELLED") return null;
    if (!force && (Date.parse(c.deadline) > now.getTime() || awaitsCancellation(c))) return null;
    const { poolCents, prizes } = frozenPrizes({ ...c, format: c.format });
    const old = await listValues<PrizeStructure>(kv, keys.prizes(cid));
    const reservation = await reserveIds(kv, "prizes", Math.max(1, prizes.length));
    const frozen: Competition = {
      ...c,
      prizePool: poolCents / 100,
      format: { ...c.format, frozenAt: now.toISOString() },
    };
    const op = reservation.claim(kv.atomic()).check(entry).set(keys.competition(cid), frozen);
    const kept = new Set(prizes.map((p) => p.position));
    for (const p of old) if (!kept.has(p.position)) op.delete(keys.prize(cid, p.position));
    prizes.forEach((row, i) => {
      const prize: PrizeStructure = {
        id: reservation.ids[i],
        competitionId: cid,
        position: row.position,
        prize: row.prize,
        prizeType: c.prizeType,
        customPrizeDescription: c.customPrizeDescription,
      };
      op.set(keys.prize(cid, row.position), prize);
    });
    const res = await touch(op, { competition: cid }).commit();
    return res.ok ? frozen : undefined;
  });
}
