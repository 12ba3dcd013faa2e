/** The checkout's picks: the stored selection resolved to players of the competition. */
import { useLayoutEffect, useState } from "react";
import { TEAM_SIZE } from "@/lib/domain/team_rules.ts";
import { fetchPickPlayers, type PickPlayer } from "@/lib/client/players.ts";
import { loadSelection } from "@/lib/client/selection.ts";

/** null while loading; "invalid" unless exactly 5 known players are picked. */
export function usePicks(competitionId: number): PickPlayer[] | "invalid" | null {
  const [picks, setPicks] = useState<PickPlayer[] | "invalid" | null>(null);

  // Before the first paint after hydration: a visitor without picks sees the invalid state at once
  // (no skeleton frame first), and one with picks starts fetching them a frame earlier.
  useLayoutEffect(() => {
    const ids = loadSelection(competitionId);
    if (ids.length !== TEAM_SIZE) return setPicks("invalid");
    fetchPickPlayers(competitionId)
      .then((list) => {
        const byId = new Map(list.map((p) => [p.id, p]));
        const found = ids.map((id) => byId.get(id)).filter((p) => p !== undefined);
        setPicks(found.length === TEAM_SIZE ? found : "invalid");
      })
      .catch(() => setPicks("invalid"));
  }, [competitionId]);

  return picks;
}
