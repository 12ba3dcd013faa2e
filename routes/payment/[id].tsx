import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import Checkout, { type CheckoutCompetition } from "@/islands/Checkout.tsx";
import { InvalidCheckout } from "@/components/checkout/InvalidCheckout.tsx";
import { getCompetition } from "@/lib/db/competitions.ts";
import { listPrizes } from "@/lib/db/prizes.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";
import { closedForEntries } from "@/lib/client/contests.ts";
import { pageId } from "@/lib/http/route_params.ts";

type Data =
  | {
    competition: CheckoutCompetition;
    prizes: { position: number; prize: number }[];
    closed: string | null;
    renderedAt: string;
  }
  | null;

export const handler: Handlers<Data, State> = {
  GET(req, ctx) {
    const id = pageId(ctx.params.id);
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    return cache.answer(req, competitionDependencies(id), async (now) => {
      const c = id === null ? null : await getCompetition(kv, id);
      if (!c) return ctx.render(null, { status: 404 });
      const prizes = (await listPrizes(kv, c.id)).map(({ position, prize }) => ({
        position,
        prize,
      }));
      const { name, entryFee, currency, prizePool, prizeType, customPrizeDescription } = c;
      const { status, deadline, maxEntries, currentEntries, maxEntriesPerPerson } = c;
      const competition: CheckoutCompetition = {
        id: c.id,
        name,
        entryFee,
        currency,
        prizePool,
        prizeType,
        customPrizeDescription,
        status,
        deadline,
        maxEntries,
        currentEntries,
        maxEntriesPerPerson: maxEntriesPerPerson ?? 1,
        cancelReason: c.cancelReason ?? null,
      };
      return ctx.render({
        competition,
        prizes,
        closed: closedForEntries(c, now.getTime()),
        renderedAt: now.toISOString(),
      });
    });
  },
};

/** Checkout and payment for one competition; the picks come from session storage. */
export default function PaymentPage({ data }: PageProps<Data>) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <Head>
        <title>Complete Your Entry · Fantasy Contests</title>
      </Head>
      {data
        ? (
          <Checkout
            competition={data.competition}
            prizes={data.prizes}
            closed={data.closed}
            renderedAt={data.renderedAt}
          />
        )
        : <InvalidCheckout />}
    </main>
  );
}
