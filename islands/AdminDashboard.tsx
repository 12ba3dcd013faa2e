import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Card } from "@/components/ui/Card.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { LogoutButton } from "@/components/admin/LogoutButton.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { CompetitionsTable, rowStats } from "@/components/admin/CompetitionsTable.tsx";
import { CancelDialog } from "@/components/admin/CancelDialog.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { AnalyticsPanel } from "@/components/admin/AnalyticsPanel.tsx";
import { HelpCards } from "@/components/admin/HelpCards.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import {
  cancelCompetition,
  copyEntryLink,
  deleteCompetition,
  useCompetitions,
} from "@/lib/client/admin/use_competitions.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import type { AnalyticsSummary, CompetitionRow } from "@/lib/client/admin/types.ts";

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <Card className="flex flex-col gap-1 p-4 sm:p-6">
      <p className="text-sm font-medium text-muted-foreground">{label}</p>
      <p className="text-xl font-bold tabular-nums sm:text-2xl">{value}</p>
    </Card>
  );
}

function Summary({ rows }: { rows: CompetitionRow[] }) {
  const stats = rows.map(rowStats);
  const entries = stats.reduce((sum, s) => sum + s.entries, 0);
  const revenue = stats.reduce((sum, s) => sum + s.revenue, 0);
  const live = rows.filter((r) => r.status === "LIVE").length;
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <Stat label="Competitions" value={rows.length} />
      <Stat label="Live now" value={live} />
      <Stat label="Entries" value={entries} />
      <Stat label="Revenue" value={adminMoney(revenue)} />
    </div>
  );
}

/** The admin dashboard: competitions with their actions, totals, analytics and help. */
/** What the delete dialog says: a competition with paid entries is cancelled, never deleted. */
function deleteMessage(row: CompetitionRow | null): string {
  const paid = row?.entries ?? 0;
  if (paid === 0) {
    return "Are you sure you want to delete this competition? This action cannot be undone.";
  }
  return `"${row!.name}" has ${paid} paid ${paid === 1 ? "entry" : "entries"}, so it cannot ` +
    "be deleted. Cancel it instead: every entrant is refunded and told by e-mail.";
}

export default function AdminDashboard() {
  const { rows, failed, loading, reload, setRows } = useCompetitions();
  const analytics = useAdminData<AnalyticsSummary>("/api/admin/analytics");
  const [toDelete, setToDelete] = useState<CompetitionRow | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [toCancel, setToCancel] = useState<CompetitionRow | null>(null);
  const [cancelling, setCancelling] = useState(false);

  const confirmCancel = async (reason: string) => {
    if (!toCancel) return;
    setCancelling(true);
    const saved = await cancelCompetition(toCancel.id, reason);
    setCancelling(false);
    if (saved && rows) setRows(rows.map((r) => (r.id === saved.id ? { ...r, ...saved } : r)));
    setToCancel(null);
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    const deleted = await deleteCompetition(toDelete.id);
    setDeleting(false);
    if (deleted && rows) setRows(rows.filter((r) => r.id !== toDelete.id));
    setToDelete(null);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Competitions Dashboard"
        description="Create competitions, manage their players and prizes, and run them live."
        actions={
          <>
            <LogoutButton />
            <Button variant="outline" href="/admin/2fa">Two-Factor</Button>
            <Button variant="outline" href="/admin/matches">Manage Matches</Button>
            <Button variant="outline" href="/admin/rounds">Rounds</Button>
            <Button variant="outline" href="/admin/clubs">Clubs</Button>
            <Button variant="outline" href="/admin/players">Players</Button>
            <Button variant="outline" href="/admin/player-performances">Player Performances</Button>
            <Button variant="outline" href="/admin/payments">Payments</Button>
            <Button variant="outline" href="/admin/payouts">Payouts</Button>
            <Button variant="outline" href="/admin/leagues">Leagues</Button>
            <Button variant="outline" href="/admin/activity">Activity</Button>
            <Button variant="outline" href="/admin/import">Import</Button>
            <Button variant="outline" href="/admin/feed">Live Feed</Button>
            <Button variant="outline" href="/admin/outbox">Outbox</Button>
            <Button variant="outline" href="/admin/self-exclusions">Self-exclusions</Button>
            <Button href="/admin/competitions/new">
              <Icon name="plus" />New Competition
            </Button>
          </>
        }
      />
      {rows
        ? <Summary rows={rows} />
        : loading && (
          <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-hidden="true">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} className="h-[88px] rounded-xl sm:h-[104px]" />
            ))}
          </div>
        )}
      <section className="flex flex-col gap-3" aria-labelledby="competitions-heading">
        <div className="flex items-center justify-between">
          <h2 id="competitions-heading" className="text-lg font-semibold">Competitions</h2>
          <Button variant="outline" size="sm" disabled={loading} onClick={() => void reload()}>
            <Icon name="refresh" />Refresh
          </Button>
        </div>
        {loading && !rows && <TableSkeleton label="Loading competitions" />}
        {failed && !rows && (
          <ErrorState
            message="Failed to load competitions. Please try again."
            action={<Button variant="outline" onClick={() => void reload()}>Try again</Button>}
          />
        )}
        {rows && rows.length === 0 && (
          <EmptyState
            title="No competitions yet."
            description="Create your first competition to start taking entries."
            action={<Button href="/admin/competitions/new">New Competition</Button>}
          />
        )}
        {rows && rows.length > 0 && (
          <CompetitionsTable
            rows={rows}
            onCopyLink={(c) => void copyEntryLink(c.id)}
            onDelete={setToDelete}
            onCancel={setToCancel}
          />
        )}
      </section>
      <AnalyticsPanel
        days={analytics.data?.days ?? null}
        loading={analytics.loading}
        failed={Boolean(analytics.error)}
      />
      <HelpCards />
      <CancelDialog
        competition={toCancel}
        busy={cancelling}
        onConfirm={(reason) => void confirmCancel(reason)}
        onClose={() => setToCancel(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete competition"
        message={deleteMessage(toDelete)}
        blocked={(toDelete?.entries ?? 0) > 0}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
