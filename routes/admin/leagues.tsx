import { formatAdminDateUtc } from "@/lib/client/admin/datetime.ts";
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionLink } from "@/components/admin/CompetitionLink.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Table, Td, Th, THead } from "@/components/admin/Table.tsx";
import AdminLeagueRemove from "@/islands/AdminLeagueRemove.tsx";
import { listCompetitions } from "@/lib/db/competitions.ts";
import { listLeagues } from "@/lib/db/leagues.ts";
import { MAX_LEAGUE_MEMBERS } from "@/lib/domain/leagues.ts";
import type { State } from "@/lib/services.ts";

interface Row {
  id: string;
  name: string;
  competitionId: number;
  competitionName: string | null;
  memberCount: number;
  createdAt: string;
}

export const handler: Handlers<Row[], State> = {
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const [leagues, competitions] = await Promise.all([listLeagues(kv), listCompetitions(kv)]);
    const names = new Map(competitions.map((c) => [c.id, c.name]));
    return ctx.render(leagues.map((l) => ({
      id: l.id,
      name: l.name,
      competitionId: l.competitionId,
      competitionName: names.get(l.competitionId) ?? null,
      memberCount: l.memberCount,
      createdAt: l.createdAt,
    })));
  },
};

/** Friends' leagues: each with its contest and size; remove one (its entries stay in the contest). */
export default function LeaguesPage({ data }: PageProps<Row[]>) {
  return (
    <>
      <Head>
        <title>Leagues · Admin</title>
      </Head>
      <div className="flex flex-col gap-6">
        <PageHeader
          title="Leagues"
          description={`Friends' leagues made by entrants (at most ${MAX_LEAGUE_MEMBERS} entries each). No money moves in a league.`}
          actions={<BackButton />}
        />
        <Table caption="Leagues">
          <THead>
            <tr>
              <Th>League</Th>
              <Th>Competition</Th>
              <Th className="text-right">Members</Th>
              <Th>Created</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </THead>
          <tbody>
            {data.length === 0 && (
              <tr>
                <td colSpan={5} className="px-3 py-2.5" data-empty-state="">
                  No leagues yet. Entrants create them from their confirmation page or My entries.
                </td>
              </tr>
            )}
            {data.map((l) => (
              <tr key={l.id} className="border-b border-border" data-league={l.id}>
                <Td>
                  <a href={`/leagues/${l.id}`} className="font-medium hover:underline">{l.name}</a>
                </Td>
                <Td>
                  <CompetitionLink id={l.competitionId} name={l.competitionName} />
                </Td>
                <Td className="text-right tabular-nums" data-members="">{l.memberCount}</Td>
                <Td className="whitespace-nowrap text-xs">
                  {formatAdminDateUtc(l.createdAt)}
                </Td>
                <Td className="text-right">
                  <AdminLeagueRemove id={l.id} name={l.name} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
