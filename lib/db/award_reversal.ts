/**
 * Leaving COMPLETED: the awards of a competition are withdrawn in the same atomic commit that
 * changes its status. Refused once any prize is claimed or paid (money has moved or is about to);
 * before that every payout record goes (so the ledger owes nothing), its claim link stops working,
 * the winners' entries lose their prize, and each winner already e-mailed gets a notice in the
 * outbox, written in that same commit (never lost, never doubled).
 */
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { formatPrice } from "@/lib/domain/format.ts";
import { buildPrizeWithdrawnNotice } from "@/lib/email/prize_withdrawn.ts";
import type { Payout } from "./payout_records.ts";
import { queueMail } from "./outbox.ts";
import { keys } from "@/lib/store/keys.ts";
import { getManyEntries } from "@/lib/store/util.ts";

/** The awards of a competition as read for a reversal (with their versionstamps). */
export interface Awards {
  payouts: Deno.KvEntry<Payout>[];
  entries: Deno.KvEntryMaybe<Entry>[];
}

/** Most payouts one reversal handles (each is checked in the one atomic commit). */
const MAX_REVERSED = 90;

/** Reads a competition's payouts and their entries, for `assertReversible` and `reverseAwards`. */
export async function readAwards(kv: Deno.Kv, cid: number): Promise<Awards> {
  const payouts: Deno.KvEntry<Payout>[] = [];
  for await (const e of kv.list<Payout>({ prefix: keys.payoutsOf(cid) })) payouts.push(e);
  const entries = await getManyEntries<Entry>(
    kv,
    payouts.map((p) => keys.entry(p.value.entryId)),
  );
  return { payouts, entries };
}

/** The awards in words for a confirmation: "3 winners ($70.00)". */
export function awardsText(awards: Awards): string {
  const cash = new Map<string, number>();
  let other = 0;
  for (const { value: p } of awards.payouts) {
    if (p.prizeType === "NON_CASH") other++;
    else cash.set(p.currency, (cash.get(p.currency) ?? 0) + p.amount);
  }
  const parts = [...cash].map(([cur, cents]) => formatPrice(cents / 100, cur));
  if (other > 0) parts.push(`${other} non-cash ${other === 1 ? "prize" : "prizes"}`);
  const n = awards.payouts.length;
  return `${n} ${n === 1 ? "winner" : "winners"}${parts.length ? ` (${parts.join(" + ")})` : ""}`;
}

/**
 * ConflictError when the awards cannot be withdrawn: a prize already claimed or paid, or more
 * winners than one commit can check.
 */
export function assertReversible(competition: Competition, awards: Awards): void {
  const moved = awards.payouts.filter((p) => p.value.status !== "OWED");
  if (moved.length > 0) {
    const paid = moved.filter((p) => p.value.status === "PAID").length;
    const claimed = moved.length - paid;
    const what = [
      paid ? `${paid} paid` : "",
      claimed ? `${claimed} claimed` : "",
    ].filter(Boolean).join(" and ");
    throw new ConflictError(
      `${competition.name} cannot leave COMPLETED: ${what} ${
        moved.length === 1 ? "prize" : "prizes"
      } already. Its result stands.`,
    );
  }
  if (awards.payouts.length > MAX_REVERSED) {
    throw new ConflictError(
      `${competition.name} has ${awards.payouts.length} winners: more than ${MAX_REVERSED} ` +
        "awards cannot be withdrawn at once.",
    );
  }
}

/**
 * Adds the withdrawal of `awards` to `op` (the commit that moves the competition out of
 * COMPLETED): each payout checked and deleted with its claim link, its entry's prize cleared, and
 * a notice in the outbox for each winner who was told (`deliver`: an SMTP mailer, which sends it
 * from the outbox). Call assertReversible first.
 */
export function reverseAwards(
  op: Deno.AtomicOperation,
  competition: Competition,
  awards: Awards,
  { reason, now, deliver }: { reason: string; now: Date; deliver: boolean },
): void {
  awards.payouts.forEach((payout, i) => {
    const p = payout.value;
    op.check(payout).delete(payout.key);
    if (p.tokenHash) op.delete(keys.payoutByToken(p.tokenHash));
    const entry = awards.entries[i];
    if (entry.value) {
      // Not checked: an entry of a COMPLETED competition changes only by its award, which the
      // competition's own check orders (KV allows 100 checks per commit).
      op.set(entry.key, { ...entry.value, rank: null, prize: null });
    }
    if (!p.notifiedAt) return;
    const mail = buildPrizeWithdrawnNotice({
      ...p,
      to: p.email,
      competitionName: competition.name,
      reason,
    });
    // Marked for delivery like every money notice: with SMTP it is sent, retried from the outbox.
    queueMail(op, mail, {
      deliver,
      about: `prize_withdrawn:${p.competitionId}:${p.entryId}`,
      now,
      unchecked: true,
    });
  });
}

/** Why un-completing needs a confirmation: what it withdraws, for the dialog. */
export function reversalNotice(awards: Awards): string {
  if (awards.payouts.length === 0) {
    return "Leaving COMPLETED reopens the result; no prize was awarded.";
  }
  return `Leaving COMPLETED withdraws the awarded prizes: ${awardsText(awards)}. ` +
    "Each winner already told is e-mailed that the award is withdrawn; the prizes are awarded " +
    "again when the competition is completed.";
}
