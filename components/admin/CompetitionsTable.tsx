import { Badge } from "@/components/ui/Badge.tsx";
import { Table, Td, Th, THead, Tr } from "./Table.tsx";
import { CompetitionActions, type CompetitionActionsProps } from "./CompetitionActions.tsx";
import { leagueLabel } from "@/lib/domain/format.ts";
import { competitionRevenue } from "@/lib/domain/competition.ts";
import { adminMoney, statusVariant } from "@/lib/client/admin/labels.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";

export type CompetitionsTableProps = Omit<CompetitionActionsProps, "competition"> & {
  rows: CompetitionRow[];
};

/**
 * Entries made and money kept (none once CANCELLED: every entry was refunded); older rows
 * without the fields fall back to the counters.
 */
export function rowStats(row: CompetitionRow): { entries: number; revenue: number } {
  const entries = row.entries ?? row.currentEntries ?? 0;
  const computed = competitionRevenue({ ...row, currentEntries: entries });
  // A row cancelled on this screen still carries the revenue it was loaded with: status decides.
  return { entries, revenue: row.status === "CANCELLED" ? computed : row.revenue ?? computed };
}

function EntriesLine({ row }: { row: CompetitionRow }) {
  const { entries, revenue } = rowStats(row);
  return (
    <span className="whitespace-nowrap">
      {entries}
      {row.maxEntries ? `/${row.maxEntries}` : ""} {entries === 1 ? "entry" : "entries"}
      {" · "}
      {row.status === "CANCELLED" ? "refunded" : adminMoney(revenue)}
    </span>
  );
}

/** Why visitors cannot see the competition yet, when they cannot. */
function HiddenReason({ row }: { row: CompetitionRow }) {
  if (!row.hiddenReason) return null;
  return (
    <p className="mt-1 text-xs font-medium text-destructive" data-hidden-reason="">
      Hidden from visitors: {row.hiddenReason}
    </p>
  );
}

/** Players from outside its match, found at start and kept because people entered already. */
function OffMatch({ row }: { row: CompetitionRow }) {
  const players = row.offMatchPlayers;
  if (!players?.length) return null;
  const shown = players.slice(0, 3).join(", ") + (players.length > 3 ? ", …" : "");
  return (
    <p className="mt-1 text-xs font-medium text-destructive" data-off-match="">
      {players.length} {players.length === 1 ? "player is" : "players are"} not in its match:{" "}
      {shown}. Remove them (Manage Players) or cancel the competition.
    </p>
  );
}

/** A cancelled competition's refunds: a bar while its job runs, the outcome once it ended. */
function Refunds({ row }: { row: CompetitionRow }) {
  const job = row.cancellation;
  if (!job) return null;
  if (job.finishedAt) {
    return (
      <p className="mt-1 text-xs text-muted-foreground" data-cancellation="done">
        Refunded {job.refunded} of {job.total}
      </p>
    );
  }
  const retrying = job.lastPassAt !== null && job.processed === 0;
  return (
    <div className="mt-1 flex flex-col gap-1 text-xs" data-cancellation="running">
      <span>
        {retrying
          ? `${job.pending} refunds to retry`
          : `Refunding ${job.processed} of ${job.total}`}
      </span>
      <progress
        className="h-1.5 w-28"
        max={Math.max(job.total, 1)}
        value={retrying ? job.refunded : job.processed}
        aria-label={`Refunds of ${row.name}`}
      />
    </div>
  );
}

/** Phones: one card per competition with the same facts and actions as a table row. */
function CompetitionCards({ rows, ...actions }: CompetitionsTableProps) {
  return (
    <ul className="flex flex-col gap-3 md:hidden" aria-label="Competitions">
      {rows.map((row) => (
        <li
          key={row.id}
          className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
          data-competition-id={row.id}
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="font-medium">{row.name}</p>
              <p className="text-xs text-muted-foreground">
                #{row.id} · {leagueLabel(row.league)}
              </p>
              <HiddenReason row={row} />
              <OffMatch row={row} />
            </div>
            <div className="text-right">
              <Badge variant={statusVariant(row.status)}>{row.status}</Badge>
              <Refunds row={row} />
            </div>
          </div>
          <dl className="grid grid-cols-3 gap-2 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Entry Fee</dt>
              <dd className="font-medium tabular-nums">{adminMoney(row.entryFee)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Prize Pool</dt>
              <dd className="font-medium tabular-nums">{adminMoney(row.prizePool)}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Entries</dt>
              <dd className="font-medium tabular-nums">{rowStats(row).entries}</dd>
            </div>
            <div className="col-span-3">
              <dt className="text-xs text-muted-foreground">Deadline</dt>
              <dd>{formatAdminDate(row.deadline)}</dd>
            </div>
          </dl>
          <CompetitionActions
            competition={row}
            {...actions}
            className="-mx-1 flex-wrap justify-start border-t border-border pt-2"
          />
        </li>
      ))}
    </ul>
  );
}

function WideTable({ rows, ...actions }: CompetitionsTableProps) {
  return (
    <Table caption="Competitions" className="hidden md:block">
      <THead>
        <tr>
          <Th>ID</Th>
          <Th>Name</Th>
          <Th>League</Th>
          <Th>Status</Th>
          <Th className="text-right">Entry Fee</Th>
          <Th className="text-right">Prize Pool</Th>
          <Th>Deadline</Th>
          <Th className="text-right">Actions</Th>
        </tr>
      </THead>
      <tbody>
        {rows.map((row) => (
          <Tr key={row.id} data-competition-id={row.id}>
            <Td className="font-mono text-xs text-muted-foreground">{row.id}</Td>
            <Td className="min-w-[12rem]">
              <div className="font-medium">{row.name}</div>
              <div className="text-xs text-muted-foreground">
                <EntriesLine row={row} />
              </div>
              <HiddenReason row={row} />
              <OffMatch row={row} />
            </Td>
            <Td className="whitespace-nowrap">{leagueLabel(row.league)}</Td>
            <Td>
              <Badge variant={statusVariant(row.status)}>{row.status}</Badge>
              <Refunds row={row} />
            </Td>
            <Td className="text-right tabular-nums">{adminMoney(row.entryFee)}</Td>
            <Td className="text-right tabular-nums">{adminMoney(row.prizePool)}</Td>
            <Td className="whitespace-nowrap">{formatAdminDate(row.deadline)}</Td>
            <Td>
              <CompetitionActions competition={row} {...actions} />
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

/**
 * The dashboard's competitions table: ID, Name, League, Status, Entry Fee, Prize Pool, Deadline,
 * Actions; on phones the same rows as cards.
 */
export function CompetitionsTable(props: CompetitionsTableProps) {
  return (
    <>
      <WideTable {...props} />
      <CompetitionCards {...props} />
    </>
  );
}
