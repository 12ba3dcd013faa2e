import { useState } from "react";
import { Tabs } from "@/components/ui/Tabs.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { PlayersTab } from "@/components/admin/PlayersTab.tsx";
import { ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionNotFound } from "@/components/admin/CompetitionNotFound.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { usePlayerTable } from "@/lib/client/admin/player_table.ts";
import { changeCompetitionPlayers, updateSalary } from "@/lib/client/admin/competition_players.ts";
import { errorText, isNotFound } from "@/lib/client/admin/admin_api.ts";
import { deletePlayer } from "@/lib/client/admin/deletion.ts";
import type { Competition } from "@/lib/domain/types.ts";
import type { MatchWithTeams, PlayerWithTeam } from "@/lib/client/admin/types.ts";
import { Button } from "@/components/ui/Button.tsx";

/** "Add the 22 players of Riverside Rovers and Kingsbridge Athletic": the match's clubs. */
function MatchPlayersOffer(
  { match, available, busy, onAdd }: {
    match: MatchWithTeams;
    available: PlayerWithTeam[];
    busy: boolean;
    onAdd: (ids: number[]) => void;
  },
) {
  const clubs = new Set([match.homeTeamId, match.awayTeamId]);
  const ids = available.filter((p) => clubs.has(p.teamId)).map((p) => p.id);
  if (ids.length === 0) return null;
  const names = `${match.homeTeam?.name ?? "the home club"} and ${
    match.awayTeam?.name ?? "the away club"
  }`;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-muted/40 p-3 text-sm"
      data-match-players=""
    >
      <p>
        This competition's match is {names}: {ids.length} of their players are not in it yet.
      </p>
      <Button size="sm" disabled={busy} onClick={() => onAdd(ids)}>
        Add the match's {ids.length} players
      </Button>
    </div>
  );
}

/** A tab's name with its player count beside it (the count stays out of the tab's name). */
function TabLabel({ text, count }: { text: string; count: number }) {
  return (
    <>
      {text}
      <span
        aria-hidden="true"
        className="ml-2 rounded-full bg-foreground/10 px-2 py-0.5 text-xs tabular-nums"
      >
        {count}
      </span>
    </>
  );
}

/** Manage the players of a competition: Current and Available tabs. */
export default function AdminManagePlayers({ id }: { id: number }) {
  const base = `/api/admin/competitions/${id}`;
  const competition = useAdminData<Competition>(base);
  const current = useAdminData<PlayerWithTeam[]>(`${base}/players`);
  const available = useAdminData<PlayerWithTeam[]>(`${base}/available-players`);
  const currentTable = usePlayerTable(current.data ?? []);
  const availableTable = usePlayerTable(available.data ?? []);
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState("current");
  const [toDelete, setToDelete] = useState<PlayerWithTeam | null>(null);
  const matchId = competition.data?.matchId ?? null;
  const match = useAdminData<MatchWithTeams>(
    matchId === null ? null : `/api/admin/matches/${matchId}`,
  );

  const addMatchPlayers = async (ids: number[]) => {
    setBusy(true);
    if (await changeCompetitionPlayers(id, ids, "add")) {
      await Promise.all([current.reload(), available.reload()]);
    }
    setBusy(false);
  };

  const change = async (action: "add" | "remove") => {
    const table = action === "add" ? availableTable : currentTable;
    setBusy(true);
    const ok = await changeCompetitionPlayers(id, [...table.selected], action);
    if (ok) {
      table.clear();
      await Promise.all([current.reload(), available.reload()]);
    }
    setBusy(false);
  };

  const saveSalary = async (player: PlayerWithTeam, salary: number) => {
    const ok = await updateSalary(id, player, salary);
    if (ok && current.data) {
      current.setData(current.data.map((p) => (p.id === player.id ? { ...p, salary } : p)));
    }
    return ok;
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    setBusy(true);
    const deleted = await deletePlayer(toDelete);
    setBusy(false);
    setToDelete(null);
    if (!deleted) return;
    currentTable.forget(toDelete.id);
    availableTable.forget(toDelete.id);
    await Promise.all([current.reload(), available.reload()]);
  };

  const loading = !current.data || !available.data;
  const failed = current.error ?? available.error;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Manage Players"
        description={competition.data?.name ?? " "}
        actions={<BackButton />}
      />
      {isNotFound(competition.error) && <CompetitionNotFound />}
      {failed && !isNotFound(competition.error) && (
        <ErrorState message={errorText(failed, "Failed to load players")} />
      )}
      {!failed && loading && <TableSkeleton rows={10} label="Loading players" />}
      {!failed && !loading && match.data && (
        <MatchPlayersOffer
          match={match.data}
          available={available.data!}
          busy={busy}
          onAdd={(ids) => void addMatchPlayers(ids)}
        />
      )}
      {!failed && !loading && (
        <Tabs
          label="Players"
          value={tab}
          onValueChange={setTab}
          items={[
            {
              value: "current",
              label: <TabLabel text="Current Players" count={current.data!.length} />,
              content: (
                <PlayersTab
                  kind="current"
                  table={currentTable}
                  total={current.data!.length}
                  busy={busy}
                  onAction={() => void change("remove")}
                  onSalaryCommit={saveSalary}
                  onDelete={setToDelete}
                />
              ),
            },
            {
              value: "available",
              label: <TabLabel text="Available Players" count={available.data!.length} />,
              content: (
                <PlayersTab
                  kind="available"
                  table={availableTable}
                  total={available.data!.length}
                  busy={busy}
                  onAction={() => void change("add")}
                  onDelete={setToDelete}
                />
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete player"
        message={`Delete ${
          toDelete?.name ?? "this player"
        } for good? They leave every competition and their club. A player in an entry cannot be deleted. This action cannot be undone.`}
        confirmLabel="Delete Player"
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
