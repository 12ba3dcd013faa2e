import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import TeamEditor, { type TeamEditorProps } from "@/islands/TeamEditor.tsx";
import { type BuilderCompetition, builderFields } from "@/components/team/BuilderHeader.tsx";
import { TeamPlayerList } from "@/components/team/TeamPlayerList.tsx";
import { StatusCard } from "@/components/StatusCard.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { editableEntry } from "@/lib/api/team_edits.ts";
import { ownershipOnceLocked } from "@/lib/api/entry_details.ts";
import { listCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { builderGames } from "@/lib/api/builder.ts";
import { entryPlayers } from "@/lib/db/players.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { type PickPlayer, toPickPlayer } from "@/lib/client/players.ts";
import type { State } from "@/lib/services.ts";

type Data =
  | {
    kind: "open";
    token: string;
    competition: BuilderCompetition;
    players: PickPlayer[];
    renderedAt: string;
    team: TeamEditorProps["team"];
  }
  | {
    kind: "locked";
    reason: string;
    competition: { id: number; name: string };
    team: { teamId: string; teamName: string; players: PickPlayer[] };
    /** Share of entries that picked each player (the teams are locked). */
    ownership: Record<number, number> | null;
  }
  | { kind: "missing" };

/** The link is a secret: never cached, never sent on as a referrer. */
const PRIVATE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { kv, leaderboards } = ctx.state.services;
    const now = new Date();
    const found = await editableEntry(kv, ctx.params.token, now).catch((err) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    });
    if (!found) return ctx.render({ kind: "missing" }, { status: 404, headers: PRIVATE });
    const { entry, competition, locked } = found;
    const team = { teamId: entry.teamId, teamName: entry.teamName };
    if (locked) {
      const players = (await entryPlayers(kv, entry)).map(toPickPlayer);
      const ownership = await ownershipOnceLocked(leaderboards, competition);
      return ctx.render({
        ownership: ownership && Object.fromEntries(ownership),
        kind: "locked",
        reason: locked,
        competition: { id: competition.id, name: competition.name },
        team: { ...team, players },
      }, { headers: PRIVATE });
    }
    const players = (await listCompetitionPlayers(kv, competition.id)).map(toPickPlayer);
    return ctx.render({
      kind: "open",
      token: ctx.params.token,
      competition: {
        ...builderFields(competition),
        ...await builderGames(kv, competition),
      },
      players,
      renderedAt: now.toISOString(),
      team: {
        ...team,
        playerIds: entry.playerIds,
        revision: entry.revision ?? 0,
        captainId: entry.captainId ?? null,
        viceCaptainId: entry.viceCaptainId ?? null,
      },
    }, { headers: PRIVATE });
  },
};

/** A paid team's private edit page: the builder until the deadline, the locked team after. */
export default function EditTeamPage({ data }: PageProps<Data>) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-6">
      <Head>
        <title>
          {data.kind === "missing" ? "Edit link not found" : "Edit your team"} · Fantasy Contests
        </title>
        <meta name="robots" content="noindex" />
      </Head>
      {data.kind === "missing" && (
        <StatusCard
          title="Edit link not found"
          description="This link does not open any team. Use the link from your confirmation e-mail."
        >
          <Button href="/my-entries">My entries</Button>
        </StatusCard>
      )}
      {data.kind === "locked" && <LockedTeam {...data} />}
      {data.kind === "open" && (
        <>
          <h1 className="sr-only">Edit your team</h1>
          <TeamEditor
            token={data.token}
            competition={data.competition}
            players={data.players}
            renderedAt={data.renderedAt}
            team={data.team}
          />
        </>
      )}
    </main>
  );
}

function LockedTeam(
  { reason, competition, team, ownership }: Extract<Data, { kind: "locked" }>,
) {
  return (
    <div
      className="mx-auto grid max-w-2xl grid-cols-[minmax(0,1fr)] gap-5 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-6"
      data-locked-team=""
    >
      <div>
        <h1 className="break-words text-2xl font-bold tracking-tight">{team.teamName}</h1>
        <p className="mt-1 text-muted-foreground">
          {competition.name} · Team ID{" "}
          <span className="whitespace-nowrap font-mono">{team.teamId}</span>
        </p>
      </div>
      <p role="status" className="rounded-lg bg-muted/60 p-3 text-sm font-medium">{reason}</p>
      <TeamPlayerList players={team.players} ownership={ownership} />
      <Button href={`/leaderboard/${competition.id}`} size="lg">View Leaderboard</Button>
    </div>
  );
}
