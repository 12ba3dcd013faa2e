import { formatPrice, ordinal, prizeText } from "../lib/domain/format.ts";
import type { Competition } from "../lib/domain/types.ts";

export interface PrizeInfoProps {
  competition: Pick<Competition, "prizeType" | "customPrizeDescription" | "prizePool" | "currency">;
  /** The public prize structure (position, prize), possibly empty. */
  prizes: { position: number; prize: number }[];
}

/** The prize of a competition and its payout by place (1st, 2nd, …). */
export function PrizeInfo({ competition, prizes }: PrizeInfoProps) {
  const places = [...prizes].sort((a, b) => a.position - b.position);
  const prize = prizeText(competition);
  return (
    <section aria-labelledby="prize-info-title" class="grid gap-3">
      <h2 id="prize-info-title" class="text-base font-semibold">Prize information</h2>
      <div class="rounded-lg bg-primary/10 px-4 py-3">
        <p class="text-xs font-medium uppercase tracking-wide text-muted-foreground">Prize</p>
        <p
          class={prize.length > 16
            ? "mt-0.5 text-base font-bold leading-snug"
            : "mt-0.5 text-xl font-bold"}
          data-prize=""
        >
          {prize}
        </p>
      </div>
      {places.length > 0 && (
        <ol class="grid gap-1 text-sm">
          {places.map((p) => (
            <li key={p.position} class="flex justify-between rounded-md px-2 py-1 odd:bg-muted/60">
              <span>{ordinal(p.position)}</span>
              <span class="font-semibold tabular-nums">
                {formatPrice(p.prize, competition.currency)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
