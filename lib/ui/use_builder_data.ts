/**
 * The team builder's data: what the server rendered, or (when it gave none) loaded from the
 * public API (SPEC §7: the competition only when none is in state, then its players).
 */
import { useEffect, useState } from "react";
import type { Competition } from "../domain/types.ts";
import { ApiError, apiFetch } from "./api.ts";
import { fetchPickPlayers, type PickPlayer } from "./players.ts";

export type LoadState<T> = { status: "loading" } | { status: "missing" } | {
  status: "ready";
  value: T;
};

/** The competition (from the server, else fetched) and its players (likewise). */
export function useBuilderData<C extends Pick<Competition, "id">>(
  competitionId: number,
  initialCompetition: C | null,
  initialPlayers: PickPlayer[] | null,
): { competition: LoadState<C>; players: PickPlayer[] | null } {
  const [competition, setCompetition] = useState<LoadState<C>>(
    initialCompetition ? { status: "ready", value: initialCompetition } : { status: "loading" },
  );
  const [players, setPlayers] = useState(initialPlayers);

  useEffect(() => {
    if (initialCompetition) return;
    apiFetch<C>(`/api/competitions/${competitionId}`)
      .then((value) => setCompetition({ status: "ready", value }))
      .catch((err) => {
        if (err instanceof ApiError && err.status < 500) setCompetition({ status: "missing" });
      });
  }, [competitionId]);

  useEffect(() => {
    if (initialPlayers) return;
    fetchPickPlayers(competitionId).then(setPlayers).catch(() => setPlayers([]));
  }, [competitionId]);

  return { competition, players };
}
