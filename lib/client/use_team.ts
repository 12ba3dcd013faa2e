/**
 * The team builder's selection state: toggling players under the shared team rules (toasts of
 * analytics, and session-storage persistence per competition.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { checkAddPlayer, TEAM_SIZE, type TeamRules } from "@/lib/domain/team_rules.ts";
import { track } from "@/lib/client/analytics.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { loadCaptains, loadSelection, saveSelection } from "@/lib/client/selection.ts";
import { toast } from "@/lib/client/toast.ts";

export interface TeamState {
  /** The picked players, in the order they were picked. */
  selected: PickPlayer[];
  /** Ids of the picks, for quick membership tests. */
  selectedIds: ReadonlySet<number>;
  /** Adds the player, or removes it when already picked; a broken rule shows its toast instead. */
  toggle: (player: PickPlayer) => void;
  remove: (player: PickPlayer) => void;
  /** The captain and vice-captain among the picks (null: not chosen). */
  captainId: number | null;
  viceCaptainId: number | null;
  /**
   * Gives the player a role: pressed again it is taken back; the player's other role goes to
   * whoever had this one (captain and vice-captain swap).
   */
  mark: (player: PickPlayer, role: Role) => void;
}

/** The two roles of a team with captains. */
export type Role = "captain" | "vice";

interface Captains {
  captainId: number | null;
  viceCaptainId: number | null;
}

const NO_CAPTAINS: Captains = { captainId: null, viceCaptainId: null };

/** The roles after `role` is pressed for `id` (see `TeamState.mark`). */
export function markRole(roles: Captains, id: number, role: Role): Captains {
  const [mine, other] = role === "captain"
    ? ["captainId", "viceCaptainId"] as const
    : ["viceCaptainId", "captainId"] as const;
  if (roles[mine] === id) return { ...roles, [mine]: null };
  const next = { ...roles, [mine]: id };
  if (roles[other] === id) next[other] = roles[mine];
  return next;
}

/** The captain fields of a team's roles as the API and the session take them (null ones left out). */
export function captainsOf(roles: Captains): { captainId?: number; viceCaptainId?: number } {
  return {
    ...(roles.captainId !== null ? { captainId: roles.captainId } : {}),
    ...(roles.viceCaptainId !== null ? { viceCaptainId: roles.viceCaptainId } : {}),
  };
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
  initialCaptains: Partial<Captains> = {},
): TeamState {
  const [ids, setIds] = useState<number[]>(initialIds ?? []);
  const [roles, setRoles] = useState<Captains>({ ...NO_CAPTAINS, ...initialCaptains });
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
    const loaded = loadSelection(competitionId).filter((id) => byId.has(id)).slice(0, TEAM_SIZE);
    const { captainId, viceCaptainId } = loadCaptains(competitionId);
    setIds(loaded);
    setRoles({
      captainId: loaded.includes(captainId!) ? captainId! : null,
      viceCaptainId: loaded.includes(viceCaptainId!) ? viceCaptainId! : null,
    });
  }, [players]);

  useEffect(() => {
    if (changed.current && !initialIds) {
      saveSelection(competitionId, ids, captainsOf(roles));
    }
  }, [ids, roles]);

  const mark = useCallback((player: PickPlayer, role: Role) => {
    changed.current = true;
    setRoles((current) => markRole(current, player.id, role));
  }, []);

  const remove = useCallback((player: PickPlayer) => {
    changed.current = true;
    setIds((list) => list.filter((id) => id !== player.id));
    setRoles((r) => ({
      captainId: r.captainId === player.id ? null : r.captainId,
      viceCaptainId: r.viceCaptainId === player.id ? null : r.viceCaptainId,
    }));
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
  return { selected, selectedIds, toggle, remove, ...roles, mark };
}
