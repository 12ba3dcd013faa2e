/**
 * An admin refunds one entry (a duplicate payment, a complaint) without cancelling its
 * competition. The decision is one atomic commit: the refund record (PENDING, with the reason and
 * the admin, under the payment's key, so a payment is refunded at most once), the entry's
 * `refundedAt`, the competition's entry count one lower (a refunded entry counts toward neither
 * the prize pool nor the minimum of entries, and frees its place), the entry's withdrawal from
 * the leaderboard (`["roster_withdrawn", cid, id]`: the roster itself is append-only), the index
 * the sweep finds an untold entrant by, the live key bump and the admin's activity record. The
 * provider refund, its confirmation and the entrant's e-mail follow (lib/payments/entry_refund.ts).
 */
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import { formatPrice } from "@/lib/domain/format.ts";
import { readAwards } from "./award_reversal.ts";
import { auditInto, type AuditStamp } from "./audit.ts";
import type { PendingCheckout } from "./checkouts.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import type { Refund } from "./refunds.ts";
import { touchSale } from "@/lib/store/touch.ts";
import { listKeys, retryAtomic } from "@/lib/store/util.ts";

/** What the refund of one entry decided, with the entry and competition as it left them. */
export interface EntryRefundClaim {
  refund: Refund;
  entry: Entry;
  competition: Competition;
}

/**
 * Decides the refund of entry `teamId` (see the module comment): NotFoundError when there is no
 * such entry in competition `cid`, ConflictError when it was refunded already (on its own or by a
 * cancellation), its competition is cancelled or completed with prizes awarded, or nothing was
 * paid for it (no settled payment on record).
 */
export function claimEntryRefundByAdmin(
  kv: Deno.Kv,
  cid: number,
  teamId: string,
  reason: string,
  options: { admin: string; audit?: AuditStamp; now?: Date },
): Promise<EntryRefundClaim> {
  const now = options.now ?? new Date();
  return retryAtomic("refund the entry", async () => {
    const entryId = isKeyText(teamId)
      ? (await kv.get<number>(keys.entryByTeamId(teamId))).value
      : null;
    const entry = entryId === null ? null : await kv.get<Entry>(keys.entry(entryId));
    if (!entry?.value || entry.value.competitionId !== cid) {
      throw new NotFoundError(`Entry ${teamId} not found in this competition`);
    }
    const pid = entry.value.stripePaymentId;
    const [competition, existing, checkout] = await kv.getMany<
      [Competition, Refund, PendingCheckout]
    >(
      [keys.competition(cid), keys.refund(pid), keys.checkout(pid)],
    );
    if (!competition.value) throw new NotFoundError("Competition not found");
    const c = competition.value;
    if (entry.value.refundedAt || existing.value) {
      throw new ConflictError(
        `Entry ${teamId} was already refunded` +
          (existing.value ? ` (${existing.value.reason}).` : "."),
      );
    }
    if (c.status === "CANCELLED") {
      throw new ConflictError(`${c.name} is cancelled: its cancellation refunds every entry.`);
    }
    if (c.status === "COMPLETED" && (await readAwards(kv, cid)).payouts.length > 0) {
      throw new ConflictError(
        `${c.name} is completed and its prizes were awarded: its entries can no longer be ` +
          "refunded one by one.",
      );
    }
    const paid = checkout.value;
    if (paid?.status !== "FINALISED" || !(paid.amount > 0)) {
      throw new ConflictError(
        `Entry ${teamId} was not paid for (no settled payment on record): there is nothing to refund.`,
      );
    }
    const refund: Refund = {
      paymentIntentId: pid,
      competitionId: cid,
      entryTeamId: teamId,
      reason,
      amount: paid.amount,
      currency: paid.currency.toLowerCase(),
      status: "PENDING",
      createdAt: now.toISOString(),
      completedAt: null,
      notifiedAt: null,
      refundedBy: options.admin,
    };
    const refunded: Entry = { ...entry.value, refundedAt: now.toISOString() };
    const left: Competition = { ...c, currentEntries: Math.max(0, c.currentEntries - 1) };
    const op = kv.atomic().check(entry).check(competition).check(existing)
      .set(keys.refund(pid), refund)
      .set(keys.refundPending(pid), refund.createdAt)
      .set(keys.refundUnnotified(pid), refund.createdAt)
      .set(entry.key, refunded)
      .set(keys.competition(cid), left)
      .set(keys.rosterWithdrawn(cid, refunded.id), refund.createdAt);
    // A full competition has a place again: it goes back to the Open tab.
    touchSale(op, cid, c.maxEntries !== null && c.currentEntries >= c.maxEntries);
    auditInto(op, options.audit, {
      competitionId: cid,
      before: { entry: teamId, refundedAt: null, refund: null, currentEntries: c.currentEntries },
      after: {
        entry: teamId,
        refundedAt: refunded.refundedAt,
        refund: `${formatPrice(refund.amount / 100, refund.currency)} of ${pid}`,
        currentEntries: left.currentEntries,
      },
      at: now,
    });
    const res = await op.commit();
    return res.ok ? { refund, entry: refunded, competition: left } : undefined;
  });
}

/** The payments of single-entry refunds whose entrant was not told yet (the sweep tells them). */
export async function listUnnotifiedRefundIds(kv: Deno.Kv): Promise<string[]> {
  return (await listKeys(kv, keys.refundsUnnotified())).map((key) => String(key[1]));
}

/** The ids of a competition's entries refunded on their own (they left its leaderboard). */
export async function listWithdrawnEntryIds(kv: Deno.Kv, cid: number): Promise<Set<number>> {
  return new Set((await listKeys(kv, keys.rostersWithdrawn(cid))).map((key) => key[2] as number));
}
