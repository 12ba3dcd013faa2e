import type { Handlers } from "$fresh/server.ts";
import { entryOfTeam, ownedEntry } from "@/lib/api/leagues.ts";
import { leaveLeague } from "@/lib/db/leagues.ts";
import { leagueLeaveSchema } from "@/lib/domain/schemas/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {teamId, editToken} (this browser's entry) or {teamId, memberToken} (the secret its join by
   * code gave) → 200: the entry leaves the league. 404 when it is not in it.
   */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const input = await readJson(req, leagueLeaveSchema);
    const entry = input.editToken
      ? await ownedEntry(kv, input.teamId, input.editToken)
      : await entryOfTeam(kv, input.teamId);
    const proof = input.editToken ? { owner: true as const } : { memberToken: input.memberToken! };
    await leaveLeague(kv, ctx.params.id, entry.id, proof);
    return json({ message: "The entry has left the league." });
  },
};
