import { Badge } from "../ui/Badge.tsx";
import { Avatar } from "./Avatar.tsx";
import { SalaryInput } from "./SalaryInput.tsx";
import { Table, Td, Th, THead, Tr } from "./Table.tsx";
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

/** The players table of a Manage Players tab, with per-row and select-all-on-page boxes. */
export function PlayerRowsTable({ table, caption, onSalaryCommit }: PlayerRowsTableProps) {
  return (
    <Table caption={caption}>
      <THead>
        <tr>
          <Th class="w-10">
            <input
              type="checkbox"
              class={CHECKBOX}
              aria-label="Select all players on this page"
              checked={table.allOnPage}
              disabled={table.rows.length === 0}
              onChange={table.togglePage}
            />
          </Th>
          <Th>Player</Th>
          <Th>Position</Th>
          <Th>Team</Th>
          <Th class="text-right">Salary</Th>
          <Th class="text-right">Goals</Th>
          <Th class="text-right">Assists</Th>
          <Th class="text-right">Clean Sheets</Th>
        </tr>
      </THead>
      <tbody>
        {table.rows.map((p) => (
          <Tr
            key={p.id}
            data-player-id={p.id}
            data-selected={table.selected.has(p.id) || undefined}
            class={table.selected.has(p.id) ? "bg-primary/5 hover:bg-primary/10" : undefined}
          >
            <Td>
              <input
                type="checkbox"
                class={CHECKBOX}
                aria-label={`Select ${p.name}`}
                checked={table.selected.has(p.id)}
                onChange={() => table.toggle(p.id)}
              />
            </Td>
            <Td>
              <div class="flex items-center gap-2">
                <Avatar src={p.imageUrl} name={p.name} />
                <span class="font-medium">{p.name}</span>
              </div>
            </Td>
            <Td>
              <Badge variant="outline">{p.position}</Badge>
            </Td>
            <Td>
              <div class="flex items-center gap-2">
                <Avatar src={p.team?.logoUrl} name={p.team?.name ?? "?"} size="sm" square />
                <span>{p.team?.name ?? "—"}</span>
              </div>
            </Td>
            <Td class="text-right tabular-nums">
              {onSalaryCommit
                ? <SalaryInput player={p} onCommit={onSalaryCommit} />
                : adminMoney(p.salary)}
            </Td>
            <Td class="text-right tabular-nums">{p.goals}</Td>
            <Td class="text-right tabular-nums">{p.assists}</Td>
            <Td class="text-right tabular-nums">{p.cleanSheets}</Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
