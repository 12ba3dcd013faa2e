/**
 * The one place app tests read how the framework marks an island in server-rendered HTML, so
 * they ask "is this island on the page?" without depending on the markup. The markup itself is
 * lib/fresh's business and is pinned by tests/unit/fresh/islands_test.ts; a move to real Fresh
 * changes only this helper.
 */

/** How many times the island `name` (its file name in islands/, without extension) is rendered. */
export function islandCount(html: string, name: string): number {
  return html.match(new RegExp(`<!--frsh-${name}:\\d+-->`, "g"))?.length ?? 0;
}
