/** Search, filters, paging and selection of the Manage Players tables (10 per page). */
import { useMemo, useState } from "react";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";
import type { Position } from "@/lib/domain/types.ts";

export const PAGE_SIZE = 10;

/** The club and position filters of a players tab; "ALL" keeps every row. */
export interface PlayerFilters {
  /** A club id as a string (a <select> value), or "ALL". */
  teamId: string;
  position: Position | "ALL";
}

export const NO_FILTERS: PlayerFilters = { teamId: "ALL", position: "ALL" };

/**
 * Players whose name, position or team name (or short name) contains the query, case-insensitive,
 * and who play for the chosen club in the chosen position.
 * @example filterPlayers(players, "", { teamId: "3", position: "GK" }) // club 3's goalkeepers
 */
export function filterPlayers(
  players: PlayerWithTeam[],
  query: string,
  filters: PlayerFilters = NO_FILTERS,
): PlayerWithTeam[] {
  const q = query.trim().toLowerCase();
  return players.filter((p) =>
    (filters.teamId === "ALL" || String(p.teamId) === filters.teamId) &&
    (filters.position === "ALL" || p.position === filters.position) &&
    (!q || [p.name, p.position, p.team?.name, p.team?.shortName].some((v) =>
      (v ?? "").toLowerCase().includes(q)
    ))
  );
}

/** The distinct clubs of these players, sorted by name: the options of the club filter. */
export function clubOptions(players: PlayerWithTeam[]): { id: number; name: string }[] {
  const clubs = new Map<number, string>();
  for (const p of players) clubs.set(p.teamId, p.team?.name ?? `Team ${p.teamId}`);
  return [...clubs].map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The number of pages for `count` rows (at least 1). */
export function pageCount(count: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / size));
}

/** Rows of page `page` (1-based). */
export function pageRows<T>(rows: T[], page: number, size = PAGE_SIZE): T[] {
  return rows.slice((page - 1) * size, page * size);
}

/** Search, filter, page and selection state of one players tab. */
export function usePlayerTable(players: PlayerWithTeam[]) {
  const [query, setQueryRaw] = useState("");
  const [filters, setFiltersRaw] = useState<PlayerFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const filtered = useMemo(
    () => filterPlayers(players, query, filters),
    [players, query, filters],
  );
  const clubs = useMemo(() => clubOptions(players), [players]);
  const pages = pageCount(filtered.length);
  const current = Math.min(page, pages);
  const rows = pageRows(filtered, current);
  const allOnPage = rows.length > 0 && rows.every((p) => selected.has(p.id));

  const setQuery = (q: string) => {
    setQueryRaw(q);
    setPage(1);
  };
  const setFilters = (patch: Partial<PlayerFilters>) => {
    setFiltersRaw({ ...filters, ...patch });
    setPage(1);
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const togglePage = () => {
    const next = new Set(selected);
    for (const p of rows) {
      if (allOnPage) next.delete(p.id);
      else next.add(p.id);
    }
    setSelected(next);
  };
  const clear = () => setSelected(new Set());
  /** Forgets a player that no longer exists (deleted). */
  const forget = (id: number) => {
    if (!selected.has(id)) return;
    const next = new Set(selected);
    next.delete(id);
    setSelected(next);
  };

  return {
    query,
    setQuery,
    filters,
    setFilters,
    clubs,
    page: current,
    pages,
    setPage,
    rows,
    filtered,
    selected,
    toggle,
    togglePage,
    allOnPage,
    clear,
    forget,
  };
}

export type PlayerTableState = ReturnType<typeof usePlayerTable>;
