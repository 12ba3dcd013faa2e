import { useState } from "react";
import { Badge } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { Tabs } from "@/components/ui/Tabs.tsx";
import { Avatar } from "./Avatar.tsx";
import { PlayerForm } from "./PlayerForm.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "./States.tsx";
import { Table, Td, Th, THead, Tr } from "./Table.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import { emptyPlayerValues, playerToValues, savePlayer } from "@/lib/client/admin/player_form.ts";
import type { Player, Team } from "@/lib/domain/types.ts";

export interface TeamPlayersDialogProps {
  team: Team;
  onClose: () => void;
}

function PlayersList({ players, onEdit }: { players: Player[]; onEdit: (p: Player) => void }) {
  if (players.length === 0) {
    return (
      <EmptyState title="No players in this team yet." description="Add one in the next tab." />
    );
  }
  return (
    <Table caption="Team players">
      <THead>
        <tr>
          <Th>Player</Th>
          <Th>Position</Th>
          <Th className="text-right">Salary</Th>
          <Th className="text-right">
            <span className="sr-only">Edit</span>
          </Th>
        </tr>
      </THead>
      <tbody>
        {players.map((p) => (
          <Tr key={p.id}>
            <Td>
              <span className="flex items-center gap-2">
                <Avatar src={p.imageUrl} name={p.name} size="sm" />
                {p.name}
              </span>
            </Td>
            <Td>
              <Badge variant="outline">{p.position}</Badge>
            </Td>
            <Td className="text-right tabular-nums">{adminMoney(p.salary)}</Td>
            <Td className="text-right">
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Edit ${p.name}`}
                onClick={() => onEdit(p)}
              >
                Edit
              </Button>
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

/** The players of one team: a Current Players tab and an Add Player / Edit Player tab. */
export function TeamPlayersDialog({ team, onClose }: TeamPlayersDialogProps) {
  const players = useAdminData<Player[]>(`/api/admin/teams/${team.id}/players`);
  const [tab, setTab] = useState("current");
  const [editing, setEditing] = useState<Player | null>(null);

  const showList = () => {
    setEditing(null);
    setTab("current");
  };
  const submit = async (values: ReturnType<typeof emptyPlayerValues>) => {
    const ok = await savePlayer(team.id, values, editing?.id ?? null);
    if (!ok) return false;
    await players.reload();
    showList();
    return true;
  };
  const edit = (p: Player) => {
    setEditing(p);
    setTab("form");
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`${team.name} Players`}
      description="Players of this team that competitions can use."
      className="max-w-3xl"
    >
      <Tabs
        label="Team players"
        value={tab}
        onValueChange={(v) => (v === "current" ? showList() : setTab(v))}
        items={[
          {
            value: "current",
            label: "Current Players",
            content: players.error
              ? <ErrorState message="Failed to load players." />
              : players.data
              ? <PlayersList players={players.data} onEdit={edit} />
              : <TableSkeleton rows={4} />,
          },
          {
            value: "form",
            label: editing ? "Edit Player" : "Add Player",
            content: (
              <PlayerForm
                key={editing?.id ?? "new"}
                initial={editing ? playerToValues(editing) : emptyPlayerValues()}
                editing={editing !== null}
                onSubmit={submit}
                onCancel={showList}
              />
            ),
          },
        ]}
      />
    </Dialog>
  );
}
