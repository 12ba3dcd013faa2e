import { eventLabel } from "@/lib/domain/scoring.ts";
import type { LiveEvent } from "@/lib/domain/live.ts";
import { cn } from "@/lib/client/cn.ts";

const TONES: Record<string, string> = {
  GOAL: "bg-success text-white",
  ASSIST: "bg-sky-100 text-sky-900",
  SAVE: "bg-sky-100 text-sky-900",
  PENALTY_SAVE: "bg-sky-100 text-sky-900",
  CLEAN_SHEET: "bg-emerald-100 text-emerald-900",
  YELLOW_CARD: "bg-amber-100 text-amber-900",
  RED_CARD: "bg-destructive text-destructive-foreground",
  OWN_GOAL: "bg-destructive text-destructive-foreground",
  PENALTY_MISS: "bg-rose-100 text-rose-900",
};

/** HH:MM of an ISO time, in UTC on the server and local time once `local` (after hydration). */
function clock(timestamp: string, local: boolean): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return "";
  const [h, m] = local
    ? [date.getHours(), date.getMinutes()]
    : [date.getUTCHours(), date.getUTCMinutes()];
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

export interface EventListProps {
  events: LiveEvent[];
  /** Show times in the browser's time zone (true once hydrated). */
  localTimes: boolean;
}

/** The recent game events of a LIVE or COMPLETED competition, newest first. */
export function EventList({ events, localTimes }: EventListProps) {
  return (
    <section
      aria-labelledby="events-title"
      className="rounded-xl border border-border bg-card p-5 shadow-sm"
    >
      <h2 id="events-title" className="text-lg font-semibold">Recent Events</h2>
      {events.length === 0
        ? <p className="mt-3 text-sm text-muted-foreground">No game events yet.</p>
        : (
          <ol
            className="mt-3 grid max-h-96 gap-2 overflow-y-auto pr-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="events"
            tabIndex={0}
            aria-label="Game events, newest first"
          >
            {events.map((event) => (
              <li
                key={event.id}
                className="flex items-start gap-3 rounded-lg border border-border px-3 py-2"
              >
                <span className="w-10 shrink-0 pt-0.5 text-sm font-bold tabular-nums text-muted-foreground">
                  {event.minute === null ? "–" : `${event.minute}'`}
                </span>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span
                      className={cn(
                        "rounded px-1.5 py-0.5 text-xs font-semibold",
                        TONES[event.eventType] ?? "bg-muted text-foreground",
                      )}
                    >
                      {eventLabel(event.eventType)}
                    </span>
                    <span className="truncate text-sm font-medium">
                      {event.player?.name ?? "Unknown player"}
                    </span>
                    {event.player?.team && (
                      <span className="text-xs text-muted-foreground">
                        {event.player.team.shortName}
                      </span>
                    )}
                  </div>
                  {event.description && (
                    <p className="mt-0.5 text-sm text-muted-foreground">{event.description}</p>
                  )}
                </div>
                <time
                  className="shrink-0 text-xs tabular-nums text-muted-foreground"
                  dateTime={event.timestamp}
                >
                  {clock(event.timestamp, localTimes)}
                </time>
              </li>
            ))}
          </ol>
        )}
    </section>
  );
}
