/**
 * Prize payouts: one record per winning entry of a completed competition,
 * `["payouts", cid, entryId]`. A payout is OWED when awarded, CLAIMED once the winner gave their
 * payout details through their private claim link (the details sealed at rest), PAID once an
 * admin recorded the payment with its reference (exactly once). Claim links are random tokens of
 * which only the SHA-256 is kept (`["payout_by_token", hash]`), each opening its own payout only.
 */
import { ordinal, toCents } from "@/lib/domain/format.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { auditInto, type AuditStamp } from "./audit.ts";
import { keys } from "@/lib/store/keys.ts";
import { type OutboxInput, queueMail } from "./outbox.ts";
import { getManyEntries, listValues, retryAtomic } from "@/lib/store/util.ts";

export type PayoutStatus = "OWED" | "CLAIMED" | "PAID";
/** As shown: an OWED payout past the claim window is UNCLAIMED. */
export type PayoutState = "owed" | "claimed" | "paid" | "unclaimed";
export const PAYOUT_STATES: readonly PayoutState[] = ["owed", "claimed", "paid", "unclaimed"];

/** How long a winner has to claim (the link keeps working; the admin sees it unclaimed). */
export const CLAIM_WINDOW_MS = 90 * 86_400_000;

export interface Payout {
  competitionId: number;
  entryId: number;
  teamId: string;
  teamName: string;
  email: string;
  rank: number;
  /** "1st", "2nd", … */
  place: string;
  prizeType: "CASH" | "NON_CASH";
  /** Cash prize in minor units (0 for non-cash). */
  amount: number;
  /** Lower-case ISO code. */
  currency: string;
  /** The non-cash prize. */
  description: string | null;
  status: PayoutStatus;
  /** SHA-256 (hex) of the claim link's token; null until the winner was e-mailed. */
  tokenHash: string | null;
  notifiedAt: string | null;
  claimedAt: string | null;
  /** The payout details as the winner gave them, sealed (lib/crypto/sealed.ts). */
  sealedDetails: string | null;
  paidAt: string | null;
  reference: string | null;
  /** The reminders sent to a winner who had not claimed (days after the first e-mail). */
  remindedDays?: number[];
  createdAt: string;
  updatedAt: string;
}

/** The payout's state as the screens show it. */
export function payoutState(p: Payout, now = Date.now()): PayoutState {
  if (p.status === "PAID") return "paid";
  if (p.status === "CLAIMED") return "claimed";
  return Date.parse(p.createdAt) + CLAIM_WINDOW_MS < now ? "unclaimed" : "owed";
}

/** The context a payout's details are sealed with: they open only on this record. */
export function detailsContext(p: Pick<Payout, "competitionId" | "entryId">): string {
  return `payout:${p.competitionId}:${p.entryId}`;
}

/** Whether an awarded entry won something. */
function won(entry: Entry): boolean {
  if (entry.rank === null) return false;
  if (entry.prizeType === "NON_CASH") return Boolean(entry.customPrizeDescription);
  return (entry.prize ?? 0) > 0;
}

/**
 * Records the payouts of a competition's awards (after `awardPrizes`): a new winner gets an
 * OWED payout; an unpaid payout follows a changed award (or goes when the entry no longer wins);
 * a PAID payout is never changed (reconcile flags it if its award moved).
 */
export async function recordPayouts(
  kv: Deno.Kv,
  competition: Competition,
  entries: Entry[],
  now = new Date(),
): Promise<void> {
  const winners = new Map(entries.filter(won).map((e) => [e.id, e]));
  const existing = await listValues<Payout>(kv, keys.payoutsOf(competition.id));
  const stamp = now.toISOString();
  const writes: { key: Deno.KvKey; value: Payout | null }[] = [];
  for (const p of existing) {
    if (p.status === "PAID") continue;
    const entry = winners.get(p.entryId);
    if (!entry) {
      writes.push({ key: keys.payout(p.competitionId, p.entryId), value: null });
      continue;
    }
    const amount = entry.prizeType === "NON_CASH" ? 0 : toCents(entry.prize ?? 0);
    if (amount !== p.amount || entry.rank !== p.rank) {
      writes.push({
        key: keys.payout(p.competitionId, p.entryId),
        value: { ...p, amount, rank: entry.rank!, place: ordinal(entry.rank!), updatedAt: stamp },
      });
    }
  }
  const known = new Set(existing.map((p) => p.entryId));
  for (const entry of winners.values()) {
    if (known.has(entry.id)) continue;
    writes.push({
      key: keys.payout(competition.id, entry.id),
      value: {
        competitionId: competition.id,
        entryId: entry.id,
        teamId: entry.teamId,
        teamName: entry.teamName,
        email: entry.email,
        rank: entry.rank!,
        place: ordinal(entry.rank!),
        prizeType: entry.prizeType,
        amount: entry.prizeType === "NON_CASH" ? 0 : toCents(entry.prize ?? 0),
        currency: (entry.currency ?? competition.currency).toLowerCase(),
        description: entry.prizeType === "NON_CASH" ? entry.customPrizeDescription : null,
        status: "OWED",
        tokenHash: null,
        notifiedAt: null,
        claimedAt: null,
        sealedDetails: null,
        paidAt: null,
        reference: null,
        createdAt: stamp,
        updatedAt: stamp,
      },
    });
  }
  for (let i = 0; i < writes.length; i += 200) {
    const op = kv.atomic();
    for (const { key, value } of writes.slice(i, i + 200)) {
      if (value) op.set(key, value);
      else op.delete(key);
    }
    await op.commit();
  }
}

/** One payout, or null. */
export async function getPayout(kv: Deno.Kv, cid: number, entryId: number) {
  return (await kv.get<Payout>(keys.payout(cid, entryId))).value;
}

/** Every payout (of one competition when `cid` is given). */
export function listPayouts(kv: Deno.Kv, cid?: number): Promise<Payout[]> {
  return listValues<Payout>(kv, cid === undefined ? keys.payouts() : keys.payoutsOf(cid));
}

/** The payouts of these entries, by entry id (for My entries). */
export async function payoutsOfEntries(
  kv: Deno.Kv,
  entries: Pick<Entry, "id" | "competitionId">[],
): Promise<Map<number, Payout>> {
  const found = await getManyEntries<Payout>(
    kv,
    entries.map((e) => keys.payout(e.competitionId, e.id)),
  );
  return new Map(found.filter((e) => e.value).map((e) => [e.value!.entryId, e.value!]));
}

/**
 * Sets a new claim link on a payout not yet told (`notifiedAt` null) and writes the winner's
 * e-mail (carrying that link) to the outbox in the same atomic: true for exactly one caller, so
 * the winner is told once whatever crashes or retries.
 */
export function recordWinnerNotice(
  kv: Deno.Kv,
  p: Payout,
  tokenHash: string,
  mail: OutboxInput,
  options: { deliver: boolean; now?: Date },
): Promise<boolean> {
  const now = options.now ?? new Date();
  return retryAtomic("record the winner's claim link", async () => {
    const current = await kv.get<Payout>(keys.payout(p.competitionId, p.entryId));
    if (!current.value || current.value.notifiedAt) return false;
    const op = kv.atomic().check(current)
      .set(current.key, {
        ...current.value,
        tokenHash,
        notifiedAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .set(keys.payoutByToken(tokenHash), [p.competitionId, p.entryId]);
    if (current.value.tokenHash) op.delete(keys.payoutByToken(current.value.tokenHash));
    queueMail(op, mail, { ...options, about: `winner:${p.competitionId}:${p.entryId}` });
    return (await op.commit()).ok ? true : undefined;
  });
}

/**
 * Records the reminder of day `days` sent (once) with its e-mail in the same atomic; with
 * `tokenHash`, the reminder carries a new claim link, which replaces the old one. True when
 * this call wrote it; false once claimed or already reminded.
 */
export function recordReminder(
  kv: Deno.Kv,
  p: Payout,
  days: number,
  tokenHash: string | null,
  mail: OutboxInput,
  options: { deliver: boolean; now?: Date },
): Promise<boolean> {
  return retryAtomic("record the reminder", async () => {
    const current = await kv.get<Payout>(keys.payout(p.competitionId, p.entryId));
    const was = current.value;
    if (!was || was.status !== "OWED" || was.remindedDays?.includes(days)) return false;
    const remindedDays = [...(was.remindedDays ?? []), ...remindersUpTo(days, was)];
    const op = kv.atomic().check(current).set(current.key, {
      ...was,
      remindedDays,
      ...(tokenHash ? { tokenHash } : {}),
    });
    if (tokenHash) {
      op.set(keys.payoutByToken(tokenHash), [p.competitionId, p.entryId]);
      if (was.tokenHash) op.delete(keys.payoutByToken(was.tokenHash));
    }
    queueMail(op, mail, { ...options, about: `reminder${days}:${p.competitionId}:${p.entryId}` });
    return (await op.commit()).ok ? true : undefined;
  });
}

/** `days` and the earlier reminders it stands for (a 30-day reminder also covers day 7). */
function remindersUpTo(days: number, p: Payout): number[] {
  return [7, 30].filter((d) => d <= days && !p.remindedDays?.includes(d));
}

/** The payout a claim link's token hash opens, or null. */
export async function getPayoutByTokenHash(kv: Deno.Kv, tokenHash: string) {
  const ref = (await kv.get<[number, number]>(keys.payoutByToken(tokenHash))).value;
  if (!ref) return null;
  const payout = await getPayout(kv, ref[0], ref[1]);
  return payout?.tokenHash === tokenHash ? payout : null;
}

/**
 * Stores the winner's sealed payout details while the prize is not paid (a claim, or a
 * correction of one), and writes their confirmation e-mail to the outbox in the same atomic.
 * ConflictError once paid.
 */
export function markPayoutClaimed(
  kv: Deno.Kv,
  p: Payout,
  sealedDetails: string,
  notice: { mail: OutboxInput; deliver: boolean },
  now = new Date(),
): Promise<Payout> {
  return retryAtomic("record the claim", async () => {
    const current = await kv.get<Payout>(keys.payout(p.competitionId, p.entryId));
    if (!current.value) throw new NotFoundError("This prize no longer exists.");
    if (current.value.status === "PAID") {
      throw new ConflictError("This prize has already been paid; its details cannot change.");
    }
    const claimed: Payout = {
      ...current.value,
      status: "CLAIMED",
      sealedDetails,
      claimedAt: current.value.claimedAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const op = kv.atomic().check(current).set(current.key, claimed);
    queueMail(op, notice.mail, {
      deliver: notice.deliver,
      now,
      about: `claim:${p.competitionId}:${p.entryId}:${now.getTime()}`,
    });
    return (await op.commit()).ok ? claimed : undefined;
  });
}

/**
 * Records that the prize was paid, with the payment's reference, exactly once: the same reference
 * again returns the record as it is (a retry); another reference after it was paid is a
 * ConflictError.
 */
export function markPayoutPaid(
  kv: Deno.Kv,
  cid: number,
  entryId: number,
  reference: string,
  now = new Date(),
  notice?: { mail: (paid: Payout) => OutboxInput; deliver: boolean },
  audit?: AuditStamp,
): Promise<Payout> {
  return retryAtomic("record the payout", async () => {
    const current = await kv.get<Payout>(keys.payout(cid, entryId));
    if (!current.value) throw new NotFoundError("Payout not found");
    if (current.value.status === "PAID") {
      if (current.value.reference === reference) return current.value;
      throw new ConflictError(
        `This prize was already paid (reference ${current.value.reference}).`,
      );
    }
    const paid: Payout = {
      ...current.value,
      status: "PAID",
      reference,
      paidAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const op = kv.atomic().check(current).set(current.key, paid);
    auditInto(op, audit, { competitionId: cid, before: current.value, after: paid, at: now });
    // The winner's "paid" e-mail is written with the record: once, never lost.
    if (notice) {
      queueMail(op, notice.mail(paid), {
        deliver: notice.deliver,
        now,
        about: `paid:${cid}:${entryId}`,
      });
    }
    return (await op.commit()).ok ? paid : undefined;
  });
}
