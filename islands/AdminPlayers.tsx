import { useMemo, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { PlayerForm } from "@/components/admin/PlayerForm.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { Table, Td, Th, THead, Tr } from "@/components/admin/Table.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import {
  emptyPlayerValues,
  type PlayerFormValues,
  savePlayer,
} from "@/lib/client/admin/player_form.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";
import { formatSalary, searchText } from "@/lib/domain/format.ts";
import type { Team } from "@/lib/domain/types.ts";

/** Players: the whole catalogue across clubs, with "Add Player" for any club. */
export default function AdminPlayers() {
  const players = useAdminData<PlayerWithTeam[]>("/api/admin/players");
  const clubs = useAdminData<Team[]>("/api/admin/teams");
  const [query, setQuery] = useState("");
  const [adding, setAdding] = useState(false);
  const shown = useMemo(() => {
    const needle = searchText(query.trim());
    return (players.data ?? []).filter((p) =>
      !needle || searchText(`${p.name} ${p.team?.name ?? ""} ${p.position}`).includes(needle)
    );
  }, [players.data, query]);

  return (
    <div className="flex flex-col gap-6">
      <BackButton />
      <PageHeader
        title="Players"
        description="Every player of every club. Competitions pick their players from here."
        actions={
          <Button onClick={() => setAdding(true)} disabled={!clubs.data?.length}>
            <Icon name="plus" />Add Player
          </Button>
        }
      />
      <div className="max-w-sm">
        <Label htmlFor="player-search" className="sr-only">Search players</Label>
        <Input
          id="player-search"
          type="search"
          placeholder="Search by name, club or position"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        />
      </div>
      {players.error && <ErrorState message="Failed to load players." />}
      {!players.data && !players.error && <TableSkeleton label="Loading players" />}
      {players.data && players.data.length === 0 && (
        <EmptyState
          title="No players yet."
          description="Add a club first, then its players."
          action={<Button onClick={() => setAdding(true)}>Add Player</Button>}
        />
      )}
      {players.data && players.data.length > 0 && (
        <PlayersTable players={shown} total={players.data.length} />
      )}
      {adding && clubs.data && (
        <AddPlayerDialog
          clubs={clubs.data}
          onClose={() => setAdding(false)}
          onSaved={async () => {
            setAdding(false);
            await players.reload();
          }}
        />
      )}
    </div>
  );
}

function PlayersTable({ players, total }: { players: PlayerWithTeam[]; total: number }) {
  return (
    <div className="grid gap-2">
      <Table caption="Players" scrolls>
        <THead>
          <Tr>
            <Th>Name</Th>
            <Th>Club</Th>
            <Th>Position</Th>
            <Th className="text-right">Salary</Th>
            <Th className="text-right">G / A / CS</Th>
          </Tr>
        </THead>
        <tbody>
          {players.map((p) => (
            <Tr key={p.id} data-player-id={p.id}>
              <Td className="font-medium">{p.name}</Td>
              <Td>{p.team?.name ?? "—"}</Td>
              <Td>{p.position}</Td>
              <Td className="text-right tabular-nums">{formatSalary(p.salary, "USD")}</Td>
              <Td className="text-right tabular-nums">
                {p.goals} / {p.assists} / {p.cleanSheets}
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <p className="text-xs text-muted-foreground">
        Showing {players.length} of {total} players
      </p>
    </div>
  );
}

function AddPlayerDialog(
  { clubs, onClose, onSaved }: { clubs: Team[]; onClose: () => void; onSaved: () => void },
) {
  const [clubId, setClubId] = useState(String(clubs[0]?.id ?? ""));
  const submit = async (values: PlayerFormValues) => {
    const saved = await savePlayer(Number(clubId), values, null);
    if (saved) onSaved();
    return saved;
  };
  return (
    <Dialog open onClose={onClose} title="Add Player" className="max-w-2xl">
      <div className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="player-club">Club</Label>
          <Select
            id="player-club"
            value={clubId}
            onChange={(e) => setClubId(e.currentTarget.value)}
          >
            {clubs.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </Select>
        </div>
        <PlayerForm
          initial={emptyPlayerValues()}
          editing={false}
          onSubmit={submit}
          onCancel={onClose}
        />
      </div>
    </Dialog>
  );
}
