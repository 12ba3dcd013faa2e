import type { Handlers } from "$fresh/server.ts";
import { ownedEntry, perPersonHourly } from "@/lib/api/leagues.ts";
import { linkOrigin } from "@/lib/config.ts";
import { createLeague, leagueView } from "@/lib/db/leagues.ts";
import { LEAGUES_PER_HOUR } from "@/lib/domain/leagues.ts";
import { leagueCreateSchema } from "@/lib/domain/schemas/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {teamId, editToken, name} → 201 {league, inviteUrl}: a league in the competition of this
   * browser's entry, which is its first member. 400 for a name breaking the display-name rules
   * or taken in the competition, or an entry in too many leagues; 429 past LEAGUES_PER_HOUR
   * leagues an hour per person (the entry's e-mail).
   */
  async POST(req, ctx) {
    const { kv, config } = ctx.state.services;
    const input = await readJson(req, leagueCreateSchema);
    const entry = await ownedEntry(kv, input.teamId, input.editToken);
    const league = await perPersonHourly(
      kv,
      "league_create",
      entry.email,
      LEAGUES_PER_HOUR,
      "Too many new leagues",
      () => createLeague(kv, entry, input.name),
    );
    const inviteUrl = `${linkOrigin(config)}/leagues/${league.id}`;
    return json({ league: leagueView(league), inviteUrl }, { status: 201 });
  },
};
