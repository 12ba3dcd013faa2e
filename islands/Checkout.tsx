import { useEffect, useState } from "react";
import { PicksSummary } from "@/components/checkout/PicksSummary.tsx";
import { CheckoutFlow } from "@/components/checkout/CheckoutFlow.tsx";
import { InvalidCheckout } from "@/components/checkout/InvalidCheckout.tsx";
import { PrizeInfo } from "@/components/PrizeInfo.tsx";
import { StatusCard } from "@/components/StatusCard.tsx";
import { Countdown } from "@/components/team/Countdown.tsx";
import { Badge } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { track } from "@/lib/client/analytics.ts";
import type { CheckoutCompetition, EntryCount } from "@/lib/client/checkout.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { CHECKOUT_PREPAINT } from "@/lib/client/prepaint.ts";
import { LocalTime } from "@/components/LocalTime.tsx";
import { useEntryWindow } from "@/lib/client/use_entry_window.ts";
import { usePicks } from "@/lib/client/use_picks.ts";
import { loadCaptains } from "@/lib/client/selection.ts";

export type { CheckoutCompetition };

export interface CheckoutProps {
  competition: CheckoutCompetition;
  prizes: { position: number; prize: number }[];
  /** Why the competition takes no entry (checked when the page was served); null while open. */
  closed?: string | null;
  /** ISO time of the server render, so the countdown's first paint matches it. */
  renderedAt: string;
}

/** Checkout and payment: info → payment → processing → confirmation. */
export default function Checkout({ competition, prizes, closed, renderedAt }: CheckoutProps) {
  const picks = usePicks(competition.id);
  useEffect(() => track("view_payment_page", { competitionId: competition.id }), []);

  if (closed) {
    return (
      <StatusCard
        title="This competition is closed for entries."
        description={closed}
        data-closed-checkout=""
      >
        <Button href={`/leaderboard/${competition.id}`}>View Leaderboard</Button>
      </StatusCard>
    );
  }
  const invalid = picks === "invalid";
  // While the picks load, the prepaint script shows the invalid state at first paint when this
  // browser holds no full team (not after the modules have run); the invalid state then keeps
  // that very node, so nothing new is painted when the island confirms it.
  return (
    <>
      <div hidden={!invalid}>
        <InvalidCheckout />
      </div>
      {!invalid && (
        <div data-checkout-body={String(competition.id)} hidden={false}>
          <CheckoutLayout
            competition={competition}
            prizes={prizes}
            picks={picks}
            renderedAt={renderedAt}
          />
        </div>
      )}
      {picks === null && (
        <script
          // Static text of ours, allowed by its hash in the CSP.
          // deno-lint-ignore react-no-danger
          dangerouslySetInnerHTML={{ __html: CHECKOUT_PREPAINT }}
        />
      )}
    </>
  );
}

/** Which entry this would be: the server's count, once the payer's e-mail is known. */
function useEntryCount() {
  return useState<EntryCount | null>(null);
}

/** The checkout's page: heading, picks and prizes beside the form (a skeleton while loading). */
function CheckoutLayout(
  { competition, prizes, picks, renderedAt }: Omit<CheckoutProps, "closed"> & {
    picks: PickPlayer[] | null;
  },
) {
  const closed = useEntryWindow(competition.id, competition);
  const [count, setCount] = useEntryCount();
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Complete Your Entry</h1>
          <p className="mt-1 text-muted-foreground">{competition.name}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {count && count.allowed > 1 && (
            <Badge variant="secondary" data-entry-count="">
              {count.number > count.allowed
                ? "Entry limit reached"
                : `Entry ${count.number} of ${count.allowed}`}
            </Badge>
          )}
          {competition.deadline && !closed && (
            <span className="flex items-center gap-2 text-sm text-muted-foreground">
              Closes in
              <Countdown deadline={competition.deadline} renderedAt={renderedAt} />
              <LocalTime iso={competition.deadline} className="whitespace-nowrap" />
            </span>
          )}
        </div>
      </div>
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="grid grid-cols-1 gap-6 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5">
          {picks === null ? <PicksSkeleton /> : (
            <PicksSummary
              picks={picks}
              currency={competition.currency}
              roles={loadCaptains(competition.id)}
            />
          )}
          <PrizeInfo competition={competition} prizes={prizes} />
        </div>
        <div className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5">
          {picks === null ? <Skeleton className="h-72 w-full" /> : (
            <CheckoutFlow
              competition={competition}
              picks={picks}
              closed={closed}
              onEntryNumber={setCount}
            />
          )}
        </div>
      </div>
    </div>
  );
}

function PicksSkeleton() {
  return (
    <div className="grid grid-cols-5 gap-2" aria-busy="true" aria-label="Loading your picks">
      {[0, 1, 2, 3, 4].map((i) => <Skeleton key={i} className="mx-auto h-20 w-12" />)}
    </div>
  );
}
