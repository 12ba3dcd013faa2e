/**
 * The locks of a late-swap round contest in the browser: which players' matches kicked off (by
 * the clock, or reported early by the match status) and when each open one locks. The server
 * decides at commit; this only shows the same rule ahead of time, re-read every 15 seconds.
 */
import { useEffect, useMemo, useState } from "react";
import { type BuilderFixture, fixtureOfClub } from "@/lib/domain/live.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import { hasKickedOff, lockedPickMessage } from "@/lib/domain/rounds.ts";
import type { PickPlayer } from "@/lib/client/players.ts";

export interface PickLocks {
  /** Players whose match kicked off. */
  lockedIds: ReadonlySet<number>;
  /** When each open player locks, as shown ("Sat 28 Nov, 15:00 GMT"). */
  lockTimes: ReadonlyMap<number, string>;
  /** "Bukayo Saka locked at 15:00 UTC" for a locked player, else null. */
  lockedMessage: (player: PickPlayer) => string | null;
}

const TICK_MS = 15_000;

/** "Sat 17:40": a lock time short enough for a team slot (the visitor's own zone). */
function shortWhen(iso: string): string {
  const full = formatWhen(iso); // "Sat 28 Nov, 17:40 GMT"
  const [day] = full.split(" ");
  const clock = full.split(", ")[1]?.split(" ")[0] ?? "";
  return `${day} ${clock}`.trim();
}

/** The locks of `players` under `fixtures` (none when `fixtures` is null: not late swap). */
export function usePickLocks(
  fixtures: readonly BuilderFixture[] | null | undefined,
  players: readonly PickPlayer[],
  renderedAt: string,
): PickLocks | null {
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  useEffect(() => {
    if (!fixtures) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [fixtures]);
  return useMemo(() => {
    if (!fixtures) return null;
    const lockedIds = new Set<number>();
    const lockTimes = new Map<number, string>();
    const at = new Date(now);
    for (const player of players) {
      const f = fixtureOfClub(fixtures, player.teamId);
      if (!f) continue;
      if (hasKickedOff({ kickoffTime: f.kickoffTime, status: f.status ?? "UPCOMING" }, at)) {
        lockedIds.add(player.id);
      } else lockTimes.set(player.id, shortWhen(f.kickoffTime));
    }
    const lockedMessage = (player: PickPlayer) => {
      const f = fixtureOfClub(fixtures, player.teamId);
      return f && lockedIds.has(player.id) ? lockedPickMessage(player.name, f.kickoffTime) : null;
    };
    return { lockedIds, lockTimes, lockedMessage };
  }, [fixtures, players, now]);
}
