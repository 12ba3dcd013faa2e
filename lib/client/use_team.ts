/**
 * The team builder's selection state: toggling players under the shared team rules (toasts of
 * analytics, and session-storage persistence per competition.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { checkAddPlayer, TEAM_SIZE, type TeamRules } from "@/lib/domain/team_rules.ts";
import { track } from "@/lib/client/analytics.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { loadSelection, saveSelection } from "@/lib/client/selection.ts";
import { toast } from "@/lib/client/toast.ts";

export interface TeamState {
  /** The picked players, in the order they were picked. */
  selected: PickPlayer[];
  /** Ids of the picks, for quick membership tests. */
  selectedIds: ReadonlySet<number>;
  /** Adds the player, or removes it when already picked; a broken rule shows its toast instead. */
  toggle: (player: PickPlayer) => void;
  remove: (player: PickPlayer) => void;
}

/**
 * Selection state of one competition; stable callbacks so memoised rows do not re-render. With
 * `initialIds` (a paid team being edited) the selection starts from them and is not kept in
 * the session: the saved team lives on the server.
 */
export function useTeam(
  competitionId: number,
  players: PickPlayer[],
  rules: TeamRules,
  initialIds?: number[],
): TeamState {
  const [ids, setIds] = useState<number[]>(initialIds ?? []);
  /** Set by a pick or removal: only the visitor's own changes are saved (a visit alone is not). */
  const changed = useRef(false);
  const byId = useMemo(() => new Map(players.map((p) => [p.id, p])), [players]);
  const selected = useMemo(
    () => ids.map((id) => byId.get(id)).filter((p): p is PickPlayer => p !== undefined),
    [ids, byId],
  );
  const current = useRef({ selected, rules });
  current.current = { selected, rules };

  useEffect(() => {
    if (initialIds) return;
    setIds(loadSelection(competitionId).filter((id) => byId.has(id)).slice(0, TEAM_SIZE));
  }, [players]);

  useEffect(() => {
    if (changed.current && !initialIds) saveSelection(competitionId, ids);
  }, [ids]);

  const remove = useCallback((player: PickPlayer) => {
    changed.current = true;
    setIds((list) => list.filter((id) => id !== player.id));
    track("remove_player", { competitionId, playerId: player.id });
  }, [competitionId]);

  const toggle = useCallback((player: PickPlayer) => {
    const { selected, rules } = current.current;
    if (selected.some((p) => p.id === player.id)) return remove(player);
    const violation = checkAddPlayer(selected, player, rules);
    if (violation) {
      toast({ title: violation.title, description: violation.message, variant: "destructive" });
      return;
    }
    changed.current = true;
    setIds((list) => [...list, player.id]);
    track("add_player", { competitionId, playerId: player.id });
  }, [competitionId, remove]);

  const selectedIds = useMemo(() => new Set(ids), [ids]);
  return { selected, selectedIds, toggle, remove };
}
