import { useState } from "react";
import AdminContestTemplates from "@/islands/AdminContestTemplates.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { LogoutButton } from "@/components/admin/LogoutButton.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { RowActionButton } from "@/components/admin/RowActions.tsx";
import { Table, Td, Th, THead, Tr } from "@/components/admin/Table.tsx";
import { RoundForm } from "@/components/admin/RoundForm.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import { type AdminRound, deleteRound, saveRound } from "@/lib/client/admin/rounds.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";

/** Rounds: named sets of matches (a matchday) that contests can span. */
export default function AdminRounds() {
  const rounds = useAdminData<AdminRound[]>("/api/admin/rounds");
  const matches = useAdminData<MatchWithTeams[]>("/api/admin/matches");
  const [editing, setEditing] = useState<AdminRound | "new" | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<AdminRound | null>(null);
  const [contestsFor, setContestsFor] = useState<AdminRound | null>(null);

  const save = async (body: { name: string; matchIds: number[] }) => {
    setBusy(true);
    const id = editing === "new" || editing === null ? null : editing.id;
    const { round, fieldError } = await saveRound(id, body);
    setBusy(false);
    setServerError(fieldError);
    if (!round) return;
    setEditing(null);
    await rounds.reload();
  };
  const confirmDelete = async () => {
    if (!toDelete) return;
    const ok = await deleteRound(toDelete.id);
    setToDelete(null);
    if (ok) await rounds.reload();
  };

  const rows = rounds.data;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Rounds"
        description="A round is a set of matches (a matchday); a contest can span one."
        actions={
          <>
            <BackButton />
            <LogoutButton />
            <Button onClick={() => setEditing("new")}>
              <Icon name="plus" />New Round
            </Button>
          </>
        }
      />
      {editing && matches.data && (
        <RoundForm
          key={editing === "new" ? "new" : editing.id}
          round={editing === "new" ? null : editing}
          matches={matches.data}
          busy={busy}
          serverError={serverError}
          onSave={(body) => void save(body)}
          onCancel={() => setEditing(null)}
        />
      )}
      {rounds.loading && !rows && <TableSkeleton label="Loading rounds" />}
      {rounds.error && !rows && <ErrorState message="Failed to load rounds. Please try again." />}
      {rows && rows.length === 0 && <EmptyState title="No rounds yet. Create your first round." />}
      {rows && rows.length > 0 && (
        <Table caption="Rounds">
          <THead>
            <tr>
              <Th>ID</Th>
              <Th>Name</Th>
              <Th>Matches</Th>
              <Th>First kick-off</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </THead>
          <tbody>
            {rows.map((r) => (
              <Tr key={r.id} data-round-id={r.id}>
                <Td className="font-mono text-xs text-muted-foreground">{r.id}</Td>
                <Td className="font-medium">{r.name}</Td>
                <Td className="text-sm">
                  {r.matches.map((m) =>
                    `${m.homeTeam?.shortName ?? m.homeTeamId} v ${
                      m.awayTeam?.shortName ?? m.awayTeamId
                    }`
                  ).join(", ")}
                </Td>
                <Td className="whitespace-nowrap text-sm">
                  {r.matches[0] ? formatAdminDate(r.matches[0].kickoffTime) : ""}
                </Td>
                <Td>
                  <div className="flex justify-end gap-0.5">
                    <RowActionButton
                      label={`Create contests for ${r.name}`}
                      title="Create contests"
                      icon="plus"
                      onClick={() => setContestsFor(r)}
                    />
                    <RowActionButton
                      label={`Edit ${r.name}`}
                      title="Edit"
                      icon="edit"
                      onClick={() => setEditing(r)}
                    />
                    <RowActionButton
                      label={`Delete ${r.name}`}
                      title="Delete"
                      icon="trash"
                      destructive
                      onClick={() => setToDelete(r)}
                    />
                  </div>
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      {contestsFor && (
        <AdminContestTemplates
          key={contestsFor.id}
          roundId={contestsFor.id}
          roundName={contestsFor.name}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete round"
        message="Are you sure you want to delete this round? This action cannot be undone."
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
