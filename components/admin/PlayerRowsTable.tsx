import { Badge } from "../ui/Badge.tsx";
import { Avatar } from "./Avatar.tsx";
import { SalaryInput } from "./SalaryInput.tsx";
import { CARD_LABEL, Table, Td, Th, THead, Tr } from "./Table.tsx";
import { cn } from "../../lib/ui/cn.ts";
import { adminMoney } from "../../lib/ui/admin/labels.ts";
import type { PlayerTableState } from "../../lib/ui/admin/player_table.ts";
import type { PlayerWithTeam } from "../../lib/ui/admin/types.ts";

export interface PlayerRowsTableProps {
  table: PlayerTableState;
  caption: string;
  /** Current tab: the salary is an inline input saved on blur. */
  onSalaryCommit?: (player: PlayerWithTeam, salary: number) => Promise<boolean>;
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
export function PlayerRowsTable({ table, caption, onSalaryCommit }: PlayerRowsTableProps) {
  return (
    <Table caption={caption} tableClass="max-sm:block">
      <THead class="max-sm:block">
        <tr class="max-sm:flex max-sm:items-center">
          <Th class="w-10 max-sm:flex max-sm:items-center">
            <input
              type="checkbox"
              class={CHECKBOX}
              aria-label="Select all players on this page"
              checked={table.allOnPage}
              disabled={table.rows.length === 0}
              onChange={table.togglePage}
            />
          </Th>
          <Th class="max-sm:flex max-sm:items-center">Player</Th>
          <Th class={WIDE_ONLY}>Position</Th>
          <Th class={WIDE_ONLY}>Team</Th>
          <Th class={`text-right ${WIDE_ONLY}`}>Salary</Th>
          <Th class={`text-right ${WIDE_ONLY}`}>Goals</Th>
          <Th class={`text-right ${WIDE_ONLY}`}>Assists</Th>
          <Th class={`text-right ${WIDE_ONLY}`}>Clean Sheets</Th>
        </tr>
      </THead>
      <tbody class="max-sm:block">
        {table.rows.map((p) => (
          <Tr
            key={p.id}
            data-player-id={p.id}
            data-selected={table.selected.has(p.id) || undefined}
            class={cn(
              "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-y-2 max-sm:py-3 max-sm:pr-3",
              table.selected.has(p.id) && "bg-primary/5 hover:bg-primary/10",
            )}
          >
            <Td class="max-sm:w-10 max-sm:py-0">
              <input
                type="checkbox"
                class={CHECKBOX}
                aria-label={`Select ${p.name}`}
                checked={table.selected.has(p.id)}
                onChange={() => table.toggle(p.id)}
              />
            </Td>
            <Td class="max-sm:min-w-0 max-sm:flex-1 max-sm:p-0">
              <div class="flex items-center gap-2">
                <Avatar src={p.imageUrl} name={p.name} />
                <span class="font-medium">{p.name}</span>
              </div>
            </Td>
            <Td class="max-sm:p-0">
              <Badge variant="outline">{p.position}</Badge>
            </Td>
            <Td class="max-sm:basis-full max-sm:py-0 max-sm:pl-10 max-sm:pr-0">
              <div class="flex items-center gap-2">
                <Avatar src={p.team?.logoUrl} name={p.team?.name ?? "?"} size="sm" square />
                <span>{p.team?.name ?? "—"}</span>
              </div>
            </Td>
            <Td
              class={`text-right tabular-nums max-sm:flex max-sm:basis-full max-sm:items-center max-sm:gap-2 max-sm:py-0 max-sm:pl-10 max-sm:pr-0 ${CARD_LABEL}`}
              data-label="Salary"
            >
              {onSalaryCommit
                ? <SalaryInput player={p} onCommit={onSalaryCommit} />
                : adminMoney(p.salary)}
            </Td>
            <Td class={`${STAT} max-sm:ml-10`} data-label="Goals">{p.goals}</Td>
            <Td class={STAT} data-label="Assists">{p.assists}</Td>
            <Td class={STAT} data-label="Clean Sheets">{p.cleanSheets}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
