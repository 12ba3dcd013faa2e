/**
 * What the store knows of one payment, read in one round trip: the entry it made, its refund, its
 * checkout, and the competition it is for. The paid-entry path reads these before anything else
 * (checkout.ts); one `getMany` instead of four reads matters at hundreds of payments a second.
 */
import type { Competition, Entry } from "@/lib/domain/types.ts";
import type { PendingCheckout } from "./checkouts.ts";
import { getEntry } from "./entries.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import type { Refund } from "./refunds.ts";

export interface PaymentRecords {
  entry: Entry | null;
  refund: Refund | null;
  checkout: PendingCheckout | null;
  competition: Competition | null;
}

/** The records of payment `paymentIntentId` and of competition `competitionId`. */
export async function readPaymentRecords(
  kv: Deno.Kv,
  paymentIntentId: string,
  competitionId: number,
): Promise<PaymentRecords> {
  if (!isKeyText(paymentIntentId)) {
    const competition = (await kv.get<Competition>(keys.competition(competitionId))).value;
    return { entry: null, refund: null, checkout: null, competition };
  }
  const [entryId, refund, checkout, competition] = await kv.getMany<
    [number, Refund, PendingCheckout, Competition]
  >([
    keys.entryByPayment(paymentIntentId),
    keys.refund(paymentIntentId),
    keys.checkout(paymentIntentId),
    keys.competition(competitionId),
  ]);
  return {
    entry: entryId.value === null ? null : await getEntry(kv, entryId.value),
    refund: refund.value,
    checkout: checkout.value,
    competition: competition.value,
  };
}
