import type { Handlers } from "$fresh/server.ts";
import { entryOfTeam, ownedEntry } from "@/lib/api/leagues.ts";
import { joinLeague, joinLeagueByCode, leagueView } from "@/lib/db/leagues.ts";
import { leagueJoinSchema } from "@/lib/domain/schemas/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * Adds an entry: {teamId, editToken} (this browser's own) → 201 {league}; or {teamId, code}
   * (the code e-mailed to the entry's address) → 201 {league, memberToken}, the secret this
   * browser keeps to leave again. 400 for a wrong, expired or used-up code, a full league, an
   * entry in too many leagues or in another competition; 409 when already in.
   */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const input = await readJson(req, leagueJoinSchema);
    const id = ctx.params.id;
    if (input.editToken) {
      const entry = await ownedEntry(kv, input.teamId, input.editToken);
      return json({ league: leagueView(await joinLeague(kv, id, entry)) }, { status: 201 });
    }
    const entry = await entryOfTeam(kv, input.teamId);
    const joined = await joinLeagueByCode(kv, id, entry, input.code!);
    return json({ league: leagueView(joined.league), memberToken: joined.memberToken }, {
      status: 201,
    });
  },
};
