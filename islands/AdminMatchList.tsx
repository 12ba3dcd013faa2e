import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { LogoutButton } from "@/components/admin/LogoutButton.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { MatchesTable } from "@/components/admin/MatchesTable.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { deleteMatch } from "@/lib/client/admin/matches.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";

/** Match Management: every match with its teams, kickoff and result. */
export default function AdminMatchList() {
  const matches = useAdminData<MatchWithTeams[]>("/api/admin/matches");
  const [toDelete, setToDelete] = useState<MatchWithTeams | null>(null);
  const [deleting, setDeleting] = useState(false);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    const ok = await deleteMatch(toDelete.id);
    setDeleting(false);
    setToDelete(null);
    if (ok && matches.data) matches.setData(matches.data.filter((m) => m.id !== toDelete.id));
  };

  const rows = matches.data;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Match Management"
        description="Matches link competitions to real fixtures; scores set the result."
        actions={
          <>
            <BackButton />
            <LogoutButton />
            <Button href="/admin/matches/new">
              <Icon name="plus" />New Match
            </Button>
          </>
        }
      />
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">Matches</h2>
        <Button
          variant="outline"
          size="sm"
          disabled={matches.loading}
          onClick={() => void matches.reload()}
        >
          <Icon name="refresh" />Refresh
        </Button>
      </div>
      {matches.loading && !rows && <TableSkeleton label="Loading matches" />}
      {matches.error && !rows && (
        <ErrorState
          message="Failed to load matches. Please try again."
          action={
            <Button variant="outline" onClick={() => void matches.reload()}>Try again</Button>
          }
        />
      )}
      {rows && rows.length === 0 && (
        <EmptyState
          title="No matches found. Create your first match."
          action={<Button href="/admin/matches/new">New Match</Button>}
        />
      )}
      {rows && rows.length > 0 && <MatchesTable matches={rows} onDelete={setToDelete} />}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete match"
        message="Are you sure you want to delete this match? This action cannot be undone."
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
