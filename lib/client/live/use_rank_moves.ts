/**
 * How each row moved since the previous leaderboard the visitor saw: places gained or lost, and
 * whether its points changed (the row is highlighted for a moment). The first board shows no
 * movement; later boards compare with the one before.
 */
import { useEffect, useRef, useState } from "react";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

export interface RankMove {
  /** Places gained (positive) or lost (negative) since the previous board. */
  places: number;
  /** The points changed since the previous board. */
  changed: boolean;
}

/** How long a changed row stays highlighted. */
const HIGHLIGHT_MS = 2500;

/** The moves of `rows` (by team ID) against the previous rows seen. */
export function useRankMoves(rows: LeaderboardRow[]): ReadonlyMap<string, RankMove> {
  const previous = useRef<Map<string, LeaderboardRow> | null>(null);
  const [moves, setMoves] = useState<ReadonlyMap<string, RankMove>>(new Map());
  const [highlight, setHighlight] = useState(false);

  useEffect(() => {
    const before = previous.current;
    previous.current = new Map(rows.map((row) => [row.teamId, row]));
    if (!before) return;
    const next = new Map<string, RankMove>();
    for (const row of rows) {
      const old = before.get(row.teamId);
      if (!old) continue;
      const move = { places: old.rank - row.rank, changed: old.points !== row.points };
      if (move.places !== 0 || move.changed) next.set(row.teamId, move);
    }
    setMoves(next);
    if (![...next.values()].some((m) => m.changed)) return;
    setHighlight(true);
    const timer = setTimeout(() => setHighlight(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [rows]);

  if (highlight) return moves;
  // Arrows stay until the next board; only the highlight fades.
  return new Map([...moves].map(([id, m]) => [id, { ...m, changed: false }]));
}
