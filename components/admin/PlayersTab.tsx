import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { PlayerRowsTable } from "./PlayerRowsTable.tsx";
import { EmptyState } from "./States.tsx";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import type { PlayerFilters, PlayerTableState } from "@/lib/client/admin/player_table.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";
import { POSITIONS } from "@/lib/domain/types.ts";

export interface PlayersTabProps {
  kind: "current" | "available";
  table: PlayerTableState;
  total: number;
  busy: boolean;
  onAction: () => void;
  onSalaryCommit?: (player: PlayerWithTeam, salary: number) => Promise<boolean>;
  /** Asks to delete a player for good (every competition, its club). */
  onDelete?: (player: PlayerWithTeam) => void;
}

/** The plural names of the positions, as the public team builder's filter shows them. */
const POSITION_FILTERS: Record<PlayerFilters["position"], string> = {
  ALL: "All Positions",
  GK: "Goalkeepers",
  DEF: "Defenders",
  MID: "Midfielders",
  FWD: "Forwards",
};

/** Search box plus the club and position filters of one tab. */
function Filters({ kind, table }: { kind: PlayersTabProps["kind"]; table: PlayerTableState }) {
  const id = (name: string) => `${name}-${kind}`;
  return (
    <div className="grid w-full gap-2 sm:grid-cols-[minmax(0,4fr)_minmax(0,3fr)_minmax(0,3fr)] lg:max-w-3xl">
      <div>
        <label htmlFor={id("search")} className="sr-only">Search players</label>
        <Input
          id={id("search")}
          type="search"
          placeholder="Search by name, position or team"
          value={table.query}
          onChange={(e) => table.setQuery(e.currentTarget.value)}
        />
      </div>
      <div>
        <label htmlFor={id("club")} className="sr-only">Filter by team</label>
        <Select
          id={id("club")}
          value={table.filters.teamId}
          onChange={(e) => table.setFilters({ teamId: e.currentTarget.value })}
        >
          <option value="ALL">All Teams</option>
          {table.clubs.map((c) => <option key={c.id} value={String(c.id)}>{c.name}</option>)}
        </Select>
      </div>
      <div>
        <label htmlFor={id("position")} className="sr-only">Filter by position</label>
        <Select
          id={id("position")}
          value={table.filters.position}
          onChange={(e) =>
            table.setFilters({ position: e.currentTarget.value as PlayerFilters["position"] })}
        >
          {(["ALL", ...POSITIONS] as const).map((p) => (
            <option key={p} value={p}>{POSITION_FILTERS[p]}</option>
          ))}
        </Select>
      </div>
    </div>
  );
}

function Totals({ table, total }: { table: PlayerTableState; total: number }) {
  const rows = table.filtered;
  const sum = (pick: (p: PlayerWithTeam) => number) => rows.reduce((s, p) => s + pick(p), 0);
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-1 text-sm text-muted-foreground">
      <span>
        <strong className="text-foreground">{rows.length}</strong>
        {rows.length === total ? " players" : ` of ${total} players`}
      </span>
      <span>Total salary {adminMoney(sum((p) => p.salary))}</span>
      <span>
        {sum((p) => p.goals)} goals · {sum((p) => p.assists)} assists · {sum((p) => p.cleanSheets)}
        {" "}
        clean sheets
      </span>
      <span aria-live="polite">
        <strong className="text-foreground">{table.selected.size}</strong> selected
      </span>
    </div>
  );
}

/**
 * One tab of Manage Players: search, club and position filters, table, paging, totals and the
 * Add/Remove button.
 */
export function PlayersTab(
  { kind, table, total, busy, onAction, onSalaryCommit, onDelete }: PlayersTabProps,
) {
  const current = kind === "current";
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
        <Filters kind={kind} table={table} />
        <Button
          className="shrink-0"
          variant={table.selected.size === 0 ? "outline" : current ? "destructive" : "default"}
          disabled={busy}
          onClick={onAction}
        >
          {current ? "Remove Selected" : "Add Selected"}
        </Button>
      </div>
      {table.filtered.length === 0
        ? (
          <EmptyState
            title={total === 0
              ? current ? "No players in this competition yet." : "No more players to add."
              : "No players match your search or filters."}
            description={total === 0 && current
              ? "Add players from the Available Players tab."
              : undefined}
          />
        )
        : (
          <PlayerRowsTable
            table={table}
            caption={current ? "Current players" : "Available players"}
            onSalaryCommit={onSalaryCommit}
            onDelete={onDelete}
          />
        )}
      <div className="flex flex-col gap-3 border-t border-border pt-3 sm:flex-row sm:items-center sm:justify-between">
        <Totals table={table} total={total} />
        <nav
          className="flex items-center gap-2"
          aria-label={`${current ? "Current" : "Available"} players pages`}
        >
          <Button
            variant="outline"
            size="sm"
            disabled={table.page <= 1}
            onClick={() => table.setPage(table.page - 1)}
          >
            Previous
          </Button>
          <span className="text-sm tabular-nums">Page {table.page} of {table.pages}</span>
          <Button
            variant="outline"
            size="sm"
            disabled={table.page >= table.pages}
            onClick={() => table.setPage(table.page + 1)}
          >
            Next
          </Button>
        </nav>
      </div>
    </div>
  );
}
