import { Badge } from "@/components/ui/Badge.tsx";
import { RowActionButton } from "./RowActions.tsx";
import { Avatar } from "./Avatar.tsx";
import { SalaryInput } from "./SalaryInput.tsx";
import { CARD_LABEL, Table, Td, Th, THead, Tr } from "./Table.tsx";
import { cn } from "@/lib/client/cn.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import type { PlayerTableState } from "@/lib/client/admin/player_table.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

export interface PlayerRowsTableProps {
  table: PlayerTableState;
  caption: string;
  /** Current tab: the salary is an inline input saved on blur. */
  onSalaryCommit?: (player: PlayerWithTeam, salary: number) => Promise<boolean>;
  /** When given, each row has a Delete button that calls it. */
  onDelete?: (player: PlayerWithTeam) => void;
}

const CHECKBOX = "block h-4 w-4 rounded border-border accent-primary";
/** Phones: head cells other than the select-all box and Player are hidden (cells carry labels). */
const WIDE_ONLY = "max-sm:hidden";
/** Phones: a stat of the row's card, with its column name above it. */
const STAT = `text-right tabular-nums max-sm:flex-1 max-sm:p-0 max-sm:text-left ${CARD_LABEL}`;

/**
 * The players table of a Manage Players tab, with per-row and select-all-on-page boxes; on
 * phones each row is a card (name and position, team, salary, then the stats).
 */
export function PlayerRowsTable(
  { table, caption, onSalaryCommit, onDelete }: PlayerRowsTableProps,
) {
  return (
    <Table caption={caption} tableClass="max-sm:block">
      <THead className="max-sm:block">
        <tr className="max-sm:flex max-sm:items-center">
          <Th className="w-10 max-sm:flex max-sm:items-center">
            <input
              type="checkbox"
              className={CHECKBOX}
              aria-label="Select all players on this page"
              checked={table.allOnPage}
              disabled={table.rows.length === 0}
              onChange={table.togglePage}
            />
          </Th>
          <Th className="max-sm:flex max-sm:items-center">Player</Th>
          <Th className={WIDE_ONLY}>Position</Th>
          <Th className={WIDE_ONLY}>Team</Th>
          <Th className={`text-right ${WIDE_ONLY}`}>Salary</Th>
          <Th className={`text-right ${WIDE_ONLY}`}>Goals</Th>
          <Th className={`text-right ${WIDE_ONLY}`}>Assists</Th>
          <Th className={`text-right ${WIDE_ONLY}`}>Clean Sheets</Th>
          {onDelete && <Th className={`text-right ${WIDE_ONLY}`}>Actions</Th>}
        </tr>
      </THead>
      <tbody className="max-sm:block">
        {table.rows.map((p) => (
          <Tr
            key={p.id}
            data-player-id={p.id}
            data-selected={table.selected.has(p.id) || undefined}
            className={cn(
              "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-y-2 max-sm:py-3 max-sm:pr-3",
              table.selected.has(p.id) && "bg-primary/5 hover:bg-primary/10",
            )}
          >
            <Td className="max-sm:w-10 max-sm:py-0">
              <input
                type="checkbox"
                className={CHECKBOX}
                aria-label={`Select ${p.name}`}
                checked={table.selected.has(p.id)}
                onChange={() => table.toggle(p.id)}
              />
            </Td>
            <Td className="max-sm:min-w-0 max-sm:flex-1 max-sm:p-0">
              <div className="flex items-center gap-2">
                <Avatar src={p.imageUrl} name={p.name} />
                <span className="font-medium">{p.name}</span>
              </div>
            </Td>
            <Td className="max-sm:p-0">
              <Badge variant="outline">{p.position}</Badge>
            </Td>
            <Td className="max-sm:basis-full max-sm:py-0 max-sm:pl-10 max-sm:pr-0">
              <div className="flex items-center gap-2">
                <Avatar src={p.team?.logoUrl} name={p.team?.name ?? "?"} size="sm" square />
                <span>{p.team?.name ?? "—"}</span>
              </div>
            </Td>
            <Td
              className={`text-right tabular-nums max-sm:flex max-sm:basis-full max-sm:items-center max-sm:gap-2 max-sm:py-0 max-sm:pl-10 max-sm:pr-0 ${CARD_LABEL}`}
              data-label="Salary"
            >
              {onSalaryCommit
                ? <SalaryInput player={p} onCommit={onSalaryCommit} />
                : adminMoney(p.salary)}
            </Td>
            <Td className={`${STAT} max-sm:ml-10`} data-label="Goals">{p.goals}</Td>
            <Td className={STAT} data-label="Assists">{p.assists}</Td>
            <Td className={STAT} data-label="Clean Sheets">{p.cleanSheets}</Td>
            {onDelete && (
              <Td className="text-right max-sm:p-0">
                <RowActionButton
                  label={`Delete ${p.name}`}
                  title="Delete player"
                  icon="trash"
                  destructive
                  onClick={() => onDelete(p)}
                />
              </Td>
            )}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
