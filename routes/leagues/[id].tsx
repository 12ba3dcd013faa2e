import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import { SocialMeta } from "@/components/SocialMeta.tsx";
import { Button } from "@/components/ui/Button.tsx";
import LeaderboardLive, { type LeaderboardLiveProps } from "@/islands/LeaderboardLive.tsx";
import LeagueMembership from "@/islands/LeagueMembership.tsx";
import { leagueBoard } from "@/lib/api/leagues.ts";
import { fixtureView } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { getLeague } from "@/lib/db/leagues.ts";
import { getMatchWithTeams } from "@/lib/db/matches.ts";
import { MAX_LEAGUE_MEMBERS } from "@/lib/domain/leagues.ts";
import { pickCompetition } from "@/lib/domain/live.ts";
import { competitionPreview, type SocialPreview } from "@/lib/og/previews.ts";
import type { State } from "@/lib/services.ts";

const EVENT_LIMIT = 50;

interface Data {
  league: { id: string; name: string; memberCount: number; inviteUrl: string };
  live: LeaderboardLiveProps;
  memberTeamIds: string[];
  preview: SocialPreview;
}

export const handler: Handlers<Data | null, State> = {
  /**
   * A friends' league (its id is the invite link's token): its members' live board, rendered
   * here and kept live by the contest's push, and the join and leave controls. Never cached:
   * membership changes touch no change marker.
   */
  async GET(_req, ctx) {
    const { kv, config, leaderboards } = ctx.state.services;
    const league = await getLeague(kv, ctx.params.id);
    const standings = league && await leaderboards.standings(league.competitionId);
    if (!league || !standings) return ctx.render(null, { status: 404 });
    const board = await leagueBoard(kv, leaderboards, league);
    const c = standings.competition;
    const [events, match] = await Promise.all([
      c.status === "LIVE" || c.status === "COMPLETED"
        ? listGameEvents(kv, c.id, { limit: EVENT_LIMIT })
        : null,
      c.matchId === null ? null : getMatchWithTeams(kv, c.matchId),
    ]);
    const origin = linkOrigin(config);
    const path = `/leagues/${league.id}`;
    const preview = competitionPreview(c, origin, path, new Date());
    const size = `${league.memberCount} ${league.memberCount === 1 ? "entry" : "entries"}`;
    return ctx.render({
      league: {
        id: league.id,
        name: league.name,
        memberCount: league.memberCount,
        inviteUrl: `${origin}${path}`,
      },
      memberTeamIds: board.rows.map((row) => row.teamId),
      live: {
        competition: pickCompetition({ ...c, fixture: match && fixtureView(match) }),
        rows: board.rows,
        total: board.total,
        events,
        socketPort: config.liveWsPort ?? null,
        league: { id: league.id },
      },
      preview: {
        ...preview,
        title: `${league.name} · ${c.name}`,
        description: `A friends' league of ${size} in ${c.name}. Join with your team: ` +
          preview.description,
      },
    }, { headers: { "cache-control": "no-store" } });
  },
};

function NotFound() {
  return (
    <div className="mx-auto max-w-md rounded-xl border border-border bg-card p-8 text-center shadow-sm">
      <h1 className="text-xl font-semibold">League Not Found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        This league does not exist or has been removed. Check the invite link.
      </p>
      <Button href="/" variant="outline" className="mt-6">Back to contests</Button>
    </div>
  );
}

/** A friends' league: name, invite, join/leave, and the members' live leaderboard. */
export default function LeaguePage({ data }: PageProps<Data | null>) {
  if (!data) {
    return (
      <main className="mx-auto max-w-6xl px-4 py-8">
        <Head>
          <title>League Not Found · Fantasy Contests</title>
        </Head>
        <NotFound />
      </main>
    );
  }
  const { league, live } = data;
  return (
    <main className="mx-auto grid max-w-6xl gap-6 px-4 py-8">
      <Head>
        <title>{`${league.name} · League · Fantasy Contests`}</title>
        <SocialMeta preview={data.preview} />
      </Head>
      <header className="grid gap-1">
        <p className="text-sm text-muted-foreground">
          Friends' league in{" "}
          <a
            href={`/leaderboard/${live.competition.id}`}
            className="font-medium text-foreground underline-offset-2 hover:underline"
          >
            {live.competition.name}
          </a>
        </p>
        <h1 className="break-words text-2xl font-bold sm:text-3xl" data-league-name="">
          {league.name}
        </h1>
      </header>
      <LeagueMembership
        leagueId={league.id}
        leagueName={league.name}
        competitionId={live.competition.id}
        inviteUrl={league.inviteUrl}
        memberTeamIds={data.memberTeamIds}
        memberCount={league.memberCount}
        maxMembers={MAX_LEAGUE_MEMBERS}
      />
      <LeaderboardLive {...live} />
    </main>
  );
}
