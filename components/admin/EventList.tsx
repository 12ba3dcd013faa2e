import { Badge } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Icon } from "./Icons.tsx";
import { EmptyState } from "./States.tsx";
import { eventLabel } from "@/lib/domain/scoring.ts";
import { format, isValid, parseISO } from "date-fns";
import type { EventWithPlayer } from "@/lib/client/admin/types.ts";

function time(iso: string): string {
  const at = parseISO(iso);
  return isValid(at) ? format(at, "h:mm:ss a") : "";
}

/**
 * Recent Events: player, minute, type, team short name, time and description, newest first.
 * On phones the type, team and time go on their own line under the player.
 */
export function EventList(
  { events, onDelete }: { events: EventWithPlayer[]; onDelete: (e: EventWithPlayer) => void },
) {
  if (events.length === 0) {
    return <EmptyState title="No events yet." description="Events you create appear here." />;
  }
  const sorted = [...events].sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id);
  return (
    <ul className="flex flex-col divide-y divide-border" aria-label="Recent events">
      {sorted.map((e) => {
        const label = eventLabel(e.eventType);
        const name = e.player?.name ?? `Player ${e.playerId}`;
        return (
          <li key={e.id} className="flex items-start gap-3 py-3" data-event-id={e.id}>
            <span className="w-10 shrink-0 pt-0.5 text-right font-mono text-sm tabular-nums text-muted-foreground">
              {e.minute === null || e.minute === undefined ? "—" : `${e.minute}'`}
            </span>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium max-sm:w-full">{name}</span>
                <Badge
                  variant={e.eventType === "RED_CARD" || e.eventType === "OWN_GOAL"
                    ? "destructive"
                    : "secondary"}
                >
                  {label}
                </Badge>
                {e.player?.team?.shortName && (
                  <span className="text-xs text-muted-foreground">{e.player.team.shortName}</span>
                )}
                <span className="text-xs text-muted-foreground">{time(e.timestamp)}</span>
              </div>
              {e.description && <p className="text-sm text-muted-foreground">{e.description}</p>}
            </div>
            <Button
              variant="ghost"
              size="icon-sm"
              className="text-destructive hover:text-destructive"
              aria-label={`Delete ${label} of ${name}`}
              onClick={() => onDelete(e)}
            >
              <Icon name="trash" />
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
