import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import TeamBuilder from "@/islands/TeamBuilder.tsx";
import { type BuilderCompetition, builderFields } from "@/components/team/BuilderHeader.tsx";
import { SocialMeta } from "@/components/SocialMeta.tsx";
import { StatusCard } from "@/components/StatusCard.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { linkOrigin } from "@/lib/config.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { listCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { builderGames } from "@/lib/api/builder.ts";
import { ownershipOnceLocked } from "@/lib/api/entry_details.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import { missingForTeam, rulesOf } from "@/lib/domain/team_rules.ts";
import type { State } from "@/lib/services.ts";
import { type PickPlayer, toPickPlayer } from "@/lib/client/players.ts";
import { pageId } from "@/lib/http/route_params.ts";
import { competitionPreview, type SocialPreview } from "@/lib/og/previews.ts";

type Data =
  | {
    found: true;
    competition: BuilderCompetition;
    players: PickPlayer[];
    renderedAt: string;
    missing: string | null;
    preview: SocialPreview;
    /** Share of entries that picked each player, once teams are locked; null before. */
    ownership: Record<number, number> | null;
  }
  | { found: false };

/** Ownership as plain island props. */
function shares(ownership: ReadonlyMap<number, number> | null): Record<number, number> | null {
  return ownership && Object.fromEntries(ownership);
}

export const handler: Handlers<Data, State> = {
  GET(req, ctx) {
    const id = pageId(ctx.params.id);
    const { cache, leaderboards } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    return cache.answer(req, competitionDependencies(id), async (now) => {
      const competition = id === null ? null : await getCompetition(kv, id);
      if (!competition) return ctx.render({ found: false }, { status: 404 });
      const players = (await listCompetitionPlayers(kv, competition.id)).map(toPickPlayer);
      return ctx.render({
        found: true,
        competition: {
          ...builderFields(competition),
          ...await builderGames(kv, competition),
        },
        players,
        missing: missingForTeam(players, rulesOf(competition)),
        ownership: shares(await ownershipOnceLocked(leaderboards, competition)),
        renderedAt: now.toISOString(),
        preview: competitionPreview(
          competition,
          linkOrigin(ctx.state.services.config),
          `/team-selection/${competition.id}`,
          now,
        ),
      });
    });
  },
};

/** Team selection for one competition. */
export default function TeamSelectionPage({ data }: PageProps<Data>) {
  if (!data.found) {
    return (
      <main className="mx-auto max-w-6xl px-4 py-6">
        <Head>
          <title>Competition not found · Fantasy Contests</title>
        </Head>
        <StatusCard
          title="Competition not found"
          description="It may have been removed. Pick another contest from the list."
        >
          <Button href="/">Back to contests</Button>
        </StatusCard>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-6xl px-4 py-6">
      <Head>
        <title>{data.competition.name} · Pick your team · Fantasy Contests</title>
        <SocialMeta preview={data.preview} />
      </Head>
      <TeamBuilder
        competition={data.competition}
        players={data.players}
        missing={data.missing}
        renderedAt={data.renderedAt}
        ownership={data.ownership}
      />
    </main>
  );
}
