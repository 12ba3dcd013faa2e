import { formatWhen } from "@/lib/domain/format.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";

export interface LocalTimeProps {
  /** The moment, as an ISO date-time. */
  iso: string;
  className?: string;
}

/**
 * A moment a person can act on, "Fri 27 Nov, 17:06 GMT", as `<time datetime>` (to the minute,
 * "2026-11-27T17:06Z", as few bytes as it can be on the home page's cards): rendered in UTC
 * (named) on the server, which cannot know the visitor's zone, then in the browser's own zone once
 * an island mounts (outside islands, `LOCAL_TIMES_PREPAINT` rewrites it). Nothing for a bad date.
 */
export function LocalTime({ iso, className }: LocalTimeProps) {
  const local = useMounted();
  const text = formatWhen(iso, local ? undefined : "UTC");
  if (!text) return null;
  return (
    <time dateTime={`${new Date(iso).toISOString().slice(0, 16)}Z`} className={className}>
      {text}
    </time>
  );
}
