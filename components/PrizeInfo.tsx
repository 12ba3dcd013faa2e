import { formatPrice, ordinal, prizeText } from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";

export interface PrizeInfoProps {
  competition: Pick<Competition, "prizeType" | "customPrizeDescription" | "prizePool" | "currency">;
  /** The public prize structure (position, prize), possibly empty. */
  prizes: { position: number; prize: number }[];
}

/** The prize of a competition and its payout by place (1st, 2nd, …; NON_CASH: the prize). */
export function PrizeInfo({ competition, prizes }: PrizeInfoProps) {
  const places = [...prizes].sort((a, b) => a.position - b.position);
  const prize = prizeText(competition);
  // A non-cash prize is its description at every place, never an amount.
  const nonCash = competition.prizeType === "NON_CASH" &&
    !!competition.customPrizeDescription?.trim();
  return (
    <section aria-labelledby="prize-info-title" className="grid gap-3">
      <h2 id="prize-info-title" className="text-base font-semibold">Prize information</h2>
      <div className="rounded-lg bg-primary/10 px-4 py-3">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Prize</p>
        <p
          className={prize.length > 16
            ? "mt-0.5 text-base font-bold leading-snug"
            : "mt-0.5 text-xl font-bold"}
          data-prize=""
        >
          {prize}
        </p>
      </div>
      {places.length > 0 && (
        <ol className="grid gap-1 text-sm">
          {places.map((p) => (
            <li
              key={p.position}
              className="flex justify-between rounded-md px-2 py-1 odd:bg-muted/60"
            >
              <span>{ordinal(p.position)}</span>
              <span className="text-right font-semibold tabular-nums">
                {nonCash ? prize : formatPrice(p.prize, competition.currency)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
