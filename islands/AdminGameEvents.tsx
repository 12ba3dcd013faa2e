import { useState } from "react";
import { Badge } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { EventForm } from "@/components/admin/EventForm.tsx";
import { EventList } from "@/components/admin/EventList.tsx";
import { ConfirmDialog } from "@/components/admin/ConfirmDialog.tsx";
import { ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionNotFound } from "@/components/admin/CompetitionNotFound.tsx";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { deleteEvent } from "@/lib/client/admin/game_events.ts";
import { errorText } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import { statusVariant } from "@/lib/client/admin/labels.ts";
import type { Competition } from "@/lib/domain/types.ts";
import type { EventWithPlayer, PlayerWithTeam } from "@/lib/client/admin/types.ts";

function NotFound() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Game Events" />
      <CompetitionNotFound />
    </div>
  );
}

/** The Game Events screen of a competition: create events while LIVE, review and delete them. */
export default function AdminGameEvents({ id }: { id: number }) {
  const base = id > 0 ? `/api/admin/competitions/${id}` : null;
  const competition = useAdminData<Competition>(base);
  const players = useAdminData<PlayerWithTeam[]>(base && `${base}/players`);
  const events = useAdminData<EventWithPlayer[]>(base && `${base}/events`);
  const [toDelete, setToDelete] = useState<EventWithPlayer | null>(null);
  const [deleting, setDeleting] = useState(false);

  const err = competition.error;
  if (id === 0 || (err instanceof ApiError && [400, 404].includes(err.status))) {
    return <NotFound />;
  }
  if (err) return <ErrorState message={errorText(err, "Failed to load the competition")} />;
  const c = competition.data;

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    if (await deleteEvent(id, toDelete.id)) await events.reload();
    setDeleting(false);
    setToDelete(null);
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={
          <>
            {c ? c.name : "Game Events"}
            {c && <Badge variant={statusVariant(c.status)}>{c.status}</Badge>}
          </>
        }
        description="Game events update the players' stats and the live leaderboard."
        actions={
          <>
            <BackButton />
            <Button variant="outline" href={`/leaderboard/${id}`}>
              <Icon name="chart" />View Leaderboard
            </Button>
          </>
        }
      />
      {!c && <TableSkeleton rows={6} label="Loading competition" />}
      {c && (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Create Event</CardTitle>
              <CardDescription>Goals, cards, saves and more, as they happen.</CardDescription>
            </CardHeader>
            <CardContent>
              <EventForm
                competitionId={id}
                players={players.data ?? []}
                live={c.status === "LIVE"}
                onCreated={() => void events.reload()}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader className="flex-row items-center justify-between">
              <div className="flex flex-col gap-1.5">
                <CardTitle className="text-base">Recent Events</CardTitle>
                <CardDescription>Deleting an event corrects the player's stats.</CardDescription>
              </div>
              <Button variant="ghost" size="sm" onClick={() => void events.reload()}>
                <Icon name="refresh" />Refresh
              </Button>
            </CardHeader>
            <CardContent>
              {events.error && (
                <ErrorState message={errorText(events.error, "Failed to load events")} />
              )}
              {!events.error && !events.data && <TableSkeleton rows={3} />}
              {events.data && <EventList events={events.data} onDelete={setToDelete} />}
            </CardContent>
          </Card>
        </div>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete event"
        message="Delete this event? The player's stats and points will be corrected."
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}
