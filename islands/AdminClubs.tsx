import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { ClubsTable } from "@/components/admin/ClubsTable.tsx";
import { ClubDialog } from "@/components/admin/ClubDialog.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { deleteClub } from "@/lib/client/admin/deletion.ts";
import { offersSampleTeams } from "@/lib/client/admin/teams.ts";
import { useSampleTeams } from "@/lib/client/admin/use_match_form.ts";
import type { Team } from "@/lib/domain/types.ts";

/** The dialog in use: a new club, one club being edited, or none. */
type Editing = { club: Team | null } | null;

/** Clubs: every real team, created and edited here, deleted while nothing uses it. */
export default function AdminClubs() {
  const clubs = useAdminData<Team[]>("/api/admin/teams");
  const { creatingTeams, sampleTeams } = useSampleTeams(clubs);
  const [editing, setEditing] = useState<Editing>(null);
  const [toDelete, setToDelete] = useState<Team | null>(null);
  const [deleting, setDeleting] = useState(false);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    const deleted = await deleteClub(toDelete);
    setDeleting(false);
    setToDelete(null);
    if (deleted && clubs.data) clubs.setData(clubs.data.filter((c) => c.id !== toDelete.id));
  };

  const saved = async () => {
    setEditing(null);
    await clubs.reload();
  };

  const rows = clubs.data;
  const newClub = (
    <Button onClick={() => setEditing({ club: null })}>
      <Icon name="plus" />New Club
    </Button>
  );
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Clubs"
        description="The real teams players belong to. A club with players or matches cannot be deleted."
        actions={
          <>
            <BackButton />
            {newClub}
          </>
        }
      />
      {clubs.loading && !rows && <TableSkeleton label="Loading clubs" />}
      {clubs.error && !rows && (
        <ErrorState
          message="Failed to load clubs. Please try again."
          action={<Button variant="outline" onClick={() => void clubs.reload()}>Try again</Button>}
        />
      )}
      {rows && offersSampleTeams(rows) && (
        <EmptyState
          title="No clubs yet."
          description="Create your first club, or four sample Premier League teams to get started."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {newClub}
              <Button
                variant="outline"
                disabled={creatingTeams}
                onClick={() => void sampleTeams()}
              >
                {creatingTeams ? "Creating..." : "Create Sample Teams"}
              </Button>
            </div>
          }
        />
      )}
      {rows && rows.length > 0 && (
        <ClubsTable
          clubs={rows}
          onEdit={(club) => setEditing({ club })}
          onDelete={setToDelete}
        />
      )}
      {editing && (
        <ClubDialog
          club={editing.club}
          onClose={() => setEditing(null)}
          onSaved={() => void saved()}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete club"
        message={`Delete ${
          toDelete?.name ?? "this club"
        }? A club that still has players or plays in a match cannot be deleted. This action cannot be undone.`}
        confirmLabel="Delete Club"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
