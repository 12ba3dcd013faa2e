import { useEffect, useRef, useState } from "react";
import { Dialog } from "./ui/Dialog.tsx";
import { Skeleton } from "./ui/Skeleton.tsx";
import { PositionBadge } from "./team/PositionBadge.tsx";
import {
  type DetailsPlayer,
  DIALOG_FALLBACK,
  type EntryDetails,
  fetchEntryDetails,
  NO_PLAYERS,
} from "@/lib/client/live/entry_details.ts";
import { pointsText, possessive } from "@/lib/domain/format.ts";
import { RoleBadge } from "@/components/team/RoleBadge.tsx";
import { formatLine, formatShare } from "@/lib/client/live/format.ts";
import { toastError } from "@/lib/client/toast.ts";
import { teamSharePath } from "@/lib/client/share.ts";
import ShareButtons from "@/islands/ShareButtons.tsx";

/** The entry dialog refreshes every 10 seconds while open. */
const REFRESH_MS = 10_000;

export interface TeamDialogTarget {
  /** Team id (or numeric entry id) for GET /api/entries/{id}/details. */
  id: string;
  displayName: string;
}

export interface TeamDialogProps {
  target: TeamDialogTarget | null;
  /** Changes when a live update arrives, so the open dialog refreshes at once. */
  refreshKey: number;
  onClose(): void;
}

function PlayerCard({ player }: { player: DetailsPlayer }) {
  return (
    <li className="rounded-lg border border-border p-3" data-testid="team-player">
      <div className="flex items-start gap-2">
        <PositionBadge position={player.position} className="mt-0.5" />
        <div className="min-w-0 flex-1">
          <p className="font-semibold leading-tight break-words">
            {player.name}
            {player.captain && <RoleBadge role={player.captain} />}
          </p>
          {player.team && <p className="text-xs text-muted-foreground">{player.team.name}</p>}
        </div>
        <span className="shrink-0 whitespace-nowrap font-bold tabular-nums">
          {pointsText(player.points)}
        </span>
      </div>
      {typeof player.pickedBy === "number" && (
        <p className="mt-1 text-xs text-muted-foreground" data-testid="picked-by">
          Picked by {formatShare(player.pickedBy)} of entries
        </p>
      )}
      {player.breakdown.length === 0
        ? <p className="mt-2 text-sm text-muted-foreground">No points yet</p>
        : (
          <ul className="mt-2 grid gap-1 text-sm">
            {player.breakdown.map((line) => (
              <li key={line.label} className="flex justify-between gap-3">
                <span className="text-muted-foreground">{line.label}</span>
                <span className="tabular-nums">{formatLine(line)}</span>
              </li>
            ))}
          </ul>
        )}
    </li>
  );
}

function Loading() {
  return (
    <div className="grid gap-3" aria-busy="true" aria-label="Loading team">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-20 w-full" />
      <Skeleton className="h-20 w-full" />
    </div>
  );
}

function Failure({ message }: { message: string }) {
  return (
    <div className="grid gap-1" role="alert">
      <p className="text-sm font-medium text-destructive">{DIALOG_FALLBACK}</p>
      {message !== DIALOG_FALLBACK && <p className="text-xs text-muted-foreground">{message}</p>}
    </div>
  );
}

function Details({ details, displayName }: { details: EntryDetails; displayName: string }) {
  const { entry, competition } = details;
  return (
    <div className="grid gap-4">
      <div className="flex items-center justify-between gap-3 rounded-lg bg-muted/60 px-4 py-3">
        <span className="min-w-0 text-sm text-muted-foreground">{competition.name}</span>
        <span
          className="shrink-0 whitespace-nowrap text-lg font-bold tabular-nums"
          data-testid="team-total"
        >
          {pointsText(entry.totalPoints)}
        </span>
      </div>
      <ShareButtons
        teamId={entry.teamId}
        url={teamSharePath(competition.id, entry.teamId)}
        title={`${displayName} · ${competition.name}`}
        text={`${displayName}'s team in ${competition.name}`}
      />
      {details.hiddenPicks > 0 && (
        <p className="text-sm text-muted-foreground" data-hidden-picks="">
          <span aria-hidden="true">🔒</span> {details.hiddenPicks}{" "}
          {details.hiddenPicks === 1 ? "pick" : "picks"}: Hidden until kick-off
        </p>
      )}
      {details.players.length === 0 && details.hiddenPicks === 0
        ? <p className="text-sm text-muted-foreground">{NO_PLAYERS}</p>
        : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {details.players.map((player) => <PlayerCard key={player.id} player={player} />)}
          </ul>
        )}
    </div>
  );
}

/** "{display name}'s Team": the entry's players with their points breakdown. */
export function TeamDialog({ target, refreshKey, onClose }: TeamDialogProps) {
  const [details, setDetails] = useState<EntryDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toasted = useRef(false);
  const id = target?.id ?? null;

  useEffect(() => {
    setDetails(null);
    setError(null);
    toasted.current = false;
  }, [id]);

  useEffect(() => {
    if (id === null) return;
    let alive = true;
    const load = async () => {
      try {
        const next = await fetchEntryDetails(id);
        if (!alive) return;
        setDetails(next);
        setError(null);
      } catch (err) {
        if (!alive) return;
        const message = err instanceof Error && err.message ? err.message : DIALOG_FALLBACK;
        if (!toasted.current) {
          toastError(message);
        }
        toasted.current = true;
        setError(message);
      }
    };
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [id, refreshKey]);

  return (
    <Dialog
      open={target !== null}
      onClose={onClose}
      title={target ? `${possessive(target.displayName)} Team` : ""}
      className="sm:max-w-2xl"
    >
      {details && target
        ? <Details details={details} displayName={target.displayName} />
        : error
        ? <Failure message={error} />
        : <Loading />}
    </Dialog>
  );
}
