import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import ContestList, { tabOf } from "@/islands/ContestList.tsx";
import type { ContestTab } from "@/lib/client/contests.ts";
import { type ContestCardData, toCardData } from "@/components/ContestCard.tsx";
import { listPublicCompetitions } from "@/lib/db/competitions.ts";
import { PUBLIC_COMPETITION_LIST } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";
import { sortByDeadline } from "@/lib/client/contests.ts";

interface HomeData {
  competitions: ContestCardData[];
  renderedAt: string;
  /** The tab `?tab=` asks for. */
  tab: ContestTab | null;
}

export const handler: Handlers<HomeData, State> = {
  GET(req, ctx) {
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    return cache.answer(req, PUBLIC_COMPETITION_LIST, async (now) => {
      const competitions = sortByDeadline(await listPublicCompetitions(kv)).map(toCardData);
      const tab = tabOf(new URL(req.url).searchParams.get("tab"));
      return ctx.render({ competitions, renderedAt: now.toISOString(), tab });
    });
  },
};

/** Contest selection: the cards are rendered here, the island refreshes them. */
export default function Home({ data }: PageProps<HomeData>) {
  return (
    <>
      <Head>
        <title>Fantasy Contests · Play Fantasy Football With Your Community</title>
      </Head>
      <main className="mx-auto max-w-6xl px-4 pb-16">
        <section className="py-10 text-center sm:py-14">
          <p className="mx-auto mb-4 inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
            <span className="h-2 w-2 rounded-full bg-success" aria-hidden="true" />
            Daily fantasy football contests
          </p>
          <h1 className="mx-auto max-w-3xl text-3xl font-extrabold tracking-tight sm:text-5xl">
            Play Fantasy Football With Your Community
          </h1>
          <p className="mx-auto mt-4 max-w-xl text-base text-muted-foreground sm:text-lg">
            Select a contest to build your fantasy team
          </p>
        </section>
        <ContestList initial={data.competitions} renderedAt={data.renderedAt} tab={data.tab} />
      </main>
    </>
  );
}
