import { Badge } from "@/components/ui/Badge.tsx";
import { RowActionButton, RowActionLink } from "./RowActions.tsx";
import { CARD_LABEL, Table, Td, Th, THead, Tr } from "./Table.tsx";
import { TeamName } from "./TeamName.tsx";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import { leagueLabel } from "@/lib/domain/format.ts";
import { matchStateText, matchStateVariant } from "@/lib/client/admin/labels.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";

/** The matches list: ID, Teams, Kickoff Time, Result, Actions; on phones each row is a card. */
export function MatchesTable(
  { matches, onDelete }: { matches: MatchWithTeams[]; onDelete: (m: MatchWithTeams) => void },
) {
  return (
    <Table caption="Matches" tableClass="max-sm:block">
      <THead className="max-sm:hidden">
        <tr>
          <Th>ID</Th>
          <Th>Teams</Th>
          <Th>Kickoff Time</Th>
          <Th>Result</Th>
          <Th className="text-right">Actions</Th>
        </tr>
      </THead>
      <tbody className="max-sm:block">
        {matches.map((m) => {
          const label = `${m.homeTeam?.name ?? "Home"} vs ${m.awayTeam?.name ?? "Away"}`;
          return (
            <Tr
              key={m.id}
              data-match-id={m.id}
              className="max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-3 max-sm:gap-y-2 max-sm:p-4"
            >
              <Td className="font-mono text-xs text-muted-foreground max-sm:self-center max-sm:p-0 max-sm:before:content-['#']">
                {m.id}
              </Td>
              <Td className="max-sm:col-span-2 max-sm:p-0">
                <div className="flex flex-wrap items-center gap-2">
                  <TeamName team={m.homeTeam} fallback={`Team ${m.homeTeamId}`} />
                  <span className="text-xs text-muted-foreground">vs</span>
                  <TeamName team={m.awayTeam} fallback={`Team ${m.awayTeamId}`} />
                </div>
                <div className="mt-1 text-xs text-muted-foreground">
                  {leagueLabel(m.league)} · {m.stadium}
                </div>
              </Td>
              <Td
                className={`whitespace-nowrap max-sm:p-0 ${CARD_LABEL}`}
                data-label="Kickoff Time"
              >
                {formatAdminDate(m.kickoffTime)}
              </Td>
              <Td
                className={`max-sm:self-end max-sm:p-0 max-sm:text-right ${CARD_LABEL}`}
                data-label="Result"
              >
                <Badge variant={matchStateVariant(m)} data-status={m.status}>
                  {matchStateText(m)}
                </Badge>
              </Td>
              <Td className="max-sm:col-start-2 max-sm:row-start-1 max-sm:-my-2 max-sm:-mr-2 max-sm:p-0">
                <div className="flex justify-end gap-0.5">
                  <RowActionLink
                    href={`/admin/matches/${m.id}`}
                    label={`Edit ${label}`}
                    title="Edit"
                    icon="edit"
                  />
                  <RowActionButton
                    label={`Delete ${label}`}
                    title="Delete"
                    icon="trash"
                    destructive
                    onClick={() => onDelete(m)}
                  />
                </div>
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
