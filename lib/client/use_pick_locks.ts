/**
 * The locks of a late-swap round contest in the browser: which players' matches kicked off (by
 * the clock, or reported early by the match status) and when each open one locks. The server
 * decides at commit; this only shows the same rule ahead of time, re-read every 15 seconds.
 */
import { useEffect, useMemo, useState } from "react";
import { type BuilderFixture, fixtureOfClub } from "@/lib/domain/live.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import { lockedPickMessage, matchLock } from "@/lib/domain/rounds.ts";
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

/** A fixture as the lock rule reads a match. */
const asMatch = (f: BuilderFixture) => ({
  kickoffTime: f.kickoffTime,
  status: f.status ?? "UPCOMING",
});

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
    const games = fixtures.map(asMatch);
    for (const player of players) {
      const f = fixtureOfClub(fixtures, player.teamId);
      if (!f) continue;
      const lock = matchLock(asMatch(f), games, at);
      if (lock.locked) lockedIds.add(player.id);
      else lockTimes.set(player.id, shortWhen(lock.lockAt));
    }
    const lockedMessage = (player: PickPlayer) => {
      const f = fixtureOfClub(fixtures, player.teamId);
      if (!f || !lockedIds.has(player.id)) return null;
      return lockedPickMessage(player.name, matchLock(asMatch(f), games, at).lockAt);
    };
    return { lockedIds, lockTimes, lockedMessage };
  }, [fixtures, players, now]);
}
