import type { Handlers } from "$fresh/server.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import { parseLeaderboardQuery } from "@/lib/live/leaderboard_query.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * The ranked entries: a JSON array of
   * {id, teamId, teamName, displayName, points, rank, prize, prizeType, customPrizeDescription},
   * plus captainName, viceCaptainName, actingCaptainName and actingCaptainRole in competitions
   * with captains once they kicked off, and picksToPlay once the contest started.
   * `?limit=&offset=` choose the page (default the first 100); `?teamIds=A,B` appends those
   * teams' rows that are not on the page. Headers: X-Total-Count, X-Limit, X-Offset; the ETag
   * follows the live version, so unchanged polls revalidate to 304.
   */
  async GET(req, ctx) {
    const cid = parseId(ctx.params.id);
    const query = parseLeaderboardQuery(ctx.url);
    const cache = ctx.state.services.leaderboards;
    const standings = await cache.standings(cid);
    if (!standings) throw new NotFoundError("Competition not found");
    // The clock's key: a kick-off moves what rows show without a write to the store.
    const clock = hash(standings.clock?.key ?? "");
    const etag = `W/"${standings.version ?? "0"}-${clock}-${hash(ctx.url.search)}"`;
    const headers = {
      "cache-control": "no-cache",
      etag,
      "x-total-count": String(standings.total),
      "x-limit": String(query.limit),
      "x-offset": String(query.offset),
    };
    if (req.headers.get("if-none-match") === etag) {
      return new Response(null, { status: 304, headers });
    }
    const rows = standings.rows(query.offset, query.limit);
    const onPage = new Set(rows.map((row) => row.teamId));
    const own = (await cache.rowsForTeams(standings, query.teamIds))
      .filter((row) => !onPage.has(row.teamId));
    return json([...rows, ...own], { headers });
  },
};

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(36);
}
