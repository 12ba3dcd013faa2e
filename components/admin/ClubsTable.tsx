import { RowActionButton } from "./RowActions.tsx";
import { CARD_LABEL, Table, Td, Th, THead, Tr } from "./Table.tsx";
import { TeamName } from "./TeamName.tsx";
import { leagueLabel } from "@/lib/domain/format.ts";
import type { Team } from "@/lib/domain/types.ts";

export interface ClubsTableProps {
  clubs: Team[];
  onEdit: (club: Team) => void;
  onDelete: (club: Team) => void;
}

/** The clubs list: club (logo and name), short name, league, edit and delete; cards on phones. */
export function ClubsTable({ clubs, onEdit, onDelete }: ClubsTableProps) {
  return (
    <Table caption="Clubs" tableClass="max-sm:block">
      <THead className="max-sm:hidden">
        <tr>
          <Th>Club</Th>
          <Th>Short Name</Th>
          <Th>League</Th>
          <Th className="text-right">Actions</Th>
        </tr>
      </THead>
      <tbody className="max-sm:block">
        {clubs.map((club) => (
          <Tr
            key={club.id}
            data-club-id={club.id}
            className="max-sm:grid max-sm:grid-cols-[auto_1fr_auto] max-sm:gap-x-6 max-sm:gap-y-2 max-sm:p-4"
          >
            <Td className="max-sm:col-span-2 max-sm:p-0">
              <TeamName team={club} fallback={`Club ${club.id}`} />
            </Td>
            <Td
              className={`font-mono text-xs max-sm:col-start-1 max-sm:row-start-2 max-sm:p-0 ${CARD_LABEL}`}
              data-label="Short Name"
            >
              {club.shortName}
            </Td>
            <Td
              className={`max-sm:col-start-2 max-sm:row-start-2 max-sm:p-0 ${CARD_LABEL}`}
              data-label="League"
            >
              {leagueLabel(club.league)}
            </Td>
            <Td className="max-sm:col-start-3 max-sm:row-start-1 max-sm:-my-2 max-sm:-mr-2 max-sm:p-0">
              <div className="flex justify-end gap-0.5">
                <RowActionButton
                  label={`Edit ${club.name}`}
                  title="Edit"
                  icon="edit"
                  onClick={() => onEdit(club)}
                />
                <RowActionButton
                  label={`Delete ${club.name}`}
                  title="Delete"
                  icon="trash"
                  destructive
                  onClick={() => onDelete(club)}
                />
              </div>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
