import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import { SocialMeta } from "@/components/SocialMeta.tsx";
import { Button } from "@/components/ui/Button.tsx";
import LeaderboardLive, { type LeaderboardLiveProps } from "@/islands/LeaderboardLive.tsx";
import { fixtureView } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { teamSharePath } from "@/lib/client/share.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { getMatchWithTeams } from "@/lib/db/matches.ts";
import { displayName } from "@/lib/domain/format.ts";
import { pickCompetition } from "@/lib/domain/live.ts";
import { competitionPreview, type SocialPreview, teamPreview } from "@/lib/og/previews.ts";
import { competitionWithFixture } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";
import { pageId } from "@/lib/http/route_params.ts";

/** Rows and events the server renders; the island takes over from there. */
const FIRST_PAGE = 100;
const EVENT_LIMIT = 50;

type Data = (LeaderboardLiveProps & { preview: SocialPreview }) | null;

export const handler: Handlers<Data, State> = {
  GET(req, ctx) {
    const id = pageId(ctx.params.id);
    const { kv, cache, leaderboards, config } = ctx.state.services;
    const teamId = ctx.url.searchParams.get("team");
    return cache.answer(req, competitionWithFixture(id), async (now) => {
      const standings = id === null ? null : await leaderboards.standings(id);
      if (!standings) return ctx.render(null, { status: 404 });
      const { status, matchId } = standings.competition;
      const events = status === "LIVE" || status === "COMPLETED"
        ? await listGameEvents(kv, standings.competition.id, { limit: EVENT_LIMIT })
        : null;
      const match = matchId === null ? null : await getMatchWithTeams(kv, matchId);
      // A shared team link (?team=FFT-…): its preview, and its dialog open on arrival.
      const shared = teamId === null ? null : await getEntryByTeamId(kv, teamId);
      const cid = standings.competition.id;
      const team = shared?.competitionId === cid ? shared : null;
      const origin = linkOrigin(config);
      return ctx.render({
        competition: pickCompetition({
          ...standings.competition,
          fixture: match && fixtureView(match),
        }),
        rows: standings.rows(0, FIRST_PAGE),
        total: standings.total,
        standingsAt: now.toISOString(),
        events,
        socketPort: config.liveWsPort ?? null,
        openTeam: team && { id: team.teamId, displayName: displayName(team.teamName, team.teamId) },
        preview: team
          ? teamPreview(team, standings.competition, origin, teamSharePath(cid, team.teamId), now)
          : competitionPreview(standings.competition, origin, `/leaderboard/${cid}`, now),
      });
    });
  },
};

function NotFound() {
  return (
    <div className="mx-auto max-w-md rounded-xl border border-border bg-card p-8 text-center shadow-sm">
      <h1 className="text-xl font-semibold">Competition Not Found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        This competition does not exist or has been removed.
      </p>
      <Button href="/" variant="outline" className="mt-6">Back to contests</Button>
    </div>
  );
}

/** Leaderboard: complete from the server, kept live by the island. */
export default function LeaderboardPage({ data }: PageProps<Data>) {
  const title = data ? `${data.competition.name} · Leaderboard` : "Competition Not Found";
  return (
    <main className="mx-auto max-w-6xl px-4 py-8">
      <Head>
        <title>{title} · Fantasy Contests</title>
        {data && <SocialMeta preview={data.preview} />}
      </Head>
      {data ? <LeaderboardLive {...liveProps(data)} /> : <NotFound />}
    </main>
  );
}

/** The island's props: everything but the head's preview. */
function liveProps({ preview: _, ...props }: NonNullable<Data>): LeaderboardLiveProps {
  return props;
}
