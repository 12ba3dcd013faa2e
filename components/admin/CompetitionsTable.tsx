import { Badge } from "../ui/Badge.tsx";
import { Table, Td, Th, THead, Tr } from "./Table.tsx";
import { CompetitionActions, type CompetitionActionsProps } from "./CompetitionActions.tsx";
import { adminMoney, leagueLabel, statusVariant } from "../../lib/ui/admin/labels.ts";
import { formatAdminDate } from "../../lib/ui/admin/datetime.ts";
import type { CompetitionRow } from "../../lib/ui/admin/types.ts";

export type CompetitionsTableProps = Omit<CompetitionActionsProps, "competition"> & {
  rows: CompetitionRow[];
};

/** Entries made and money taken; older rows without the fields fall back to the counters. */
export function rowStats(row: CompetitionRow): { entries: number; revenue: number } {
  const entries = row.entries ?? row.currentEntries ?? 0;
  return { entries, revenue: row.revenue ?? entries * row.entryFee };
}

/** The dashboard's competitions table: ID, Name, League, Status, Entry Fee, Prize Pool, Deadline, Actions. */
export function CompetitionsTable({ rows, ...actions }: CompetitionsTableProps) {
  return (
    <Table caption="Competitions">
      <THead>
        <tr>
          <Th>ID</Th>
          <Th>Name</Th>
          <Th>League</Th>
          <Th>Status</Th>
          <Th class="text-right">Entry Fee</Th>
          <Th class="text-right">Prize Pool</Th>
          <Th>Deadline</Th>
          <Th class="text-right">Actions</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((row) => {
          const { entries, revenue } = rowStats(row);
          return (
            <Tr key={row.id} data-competition-id={row.id}>
              <Td class="font-mono text-xs text-muted-foreground">{row.id}</Td>
              <Td>
                <div class="font-medium">{row.name}</div>
                <div class="text-xs text-muted-foreground">
                  {entries}
                  {row.maxEntries ? `/${row.maxEntries}` : ""} {entries === 1 ? "entry" : "entries"}
                  {" · "}
                  {adminMoney(revenue)}
                </div>
              </Td>
              <Td class="whitespace-nowrap">{leagueLabel(row.league)}</Td>
              <Td>
                <Badge variant={statusVariant(row.status)}>{row.status}</Badge>
              </Td>
              <Td class="text-right tabular-nums">{adminMoney(row.entryFee)}</Td>
              <Td class="text-right tabular-nums">{adminMoney(row.prizePool)}</Td>
              <Td class="whitespace-nowrap">{formatAdminDate(row.deadline)}</Td>
              <Td>
                <CompetitionActions competition={row} {...actions} />
              </Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}
