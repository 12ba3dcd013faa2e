/** Search, paging and selection of the Manage Players tables (10 per page, SPEC §9). */
import { useMemo, useState } from "react";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

export const PAGE_SIZE = 10;

/** Players whose name, position or team name (or short name) contains the query, case-insensitive. */
export function filterPlayers(players: PlayerWithTeam[], query: string): PlayerWithTeam[] {
  const q = query.trim().toLowerCase();
  if (!q) return players;
  return players.filter((p) =>
    [p.name, p.position, p.team?.name, p.team?.shortName].some((v) =>
      (v ?? "").toLowerCase().includes(q)
    )
  );
}

/** The number of pages for `count` rows (at least 1). */
export function pageCount(count: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / size));
}

/** Rows of page `page` (1-based). */
export function pageRows<T>(rows: T[], page: number, size = PAGE_SIZE): T[] {
  return rows.slice((page - 1) * size, page * size);
}

/** Search, page and selection state of one players tab. */
export function usePlayerTable(players: PlayerWithTeam[]) {
  const [query, setQueryRaw] = useState("");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const filtered = useMemo(() => filterPlayers(players, query), [players, query]);
  const pages = pageCount(filtered.length);
  const current = Math.min(page, pages);
  const rows = pageRows(filtered, current);
  const allOnPage = rows.length > 0 && rows.every((p) => selected.has(p.id));

  const setQuery = (q: string) => {
    setQueryRaw(q);
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

  return {
    query,
    setQuery,
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
  };
}

export type PlayerTableState = ReturnType<typeof usePlayerTable>;
