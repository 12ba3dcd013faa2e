import type { Handlers } from "$fresh/server.ts";
import { matchInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { createMatch, listMatches, withTeams } from "@/lib/db/matches.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every match with homeTeam and awayTeam, by kickoff time. */
  async GET(_req, ctx) {
    return json(await listMatches(ctx.state.services.kv));
  },
  /** Creates a match; result and status follow the scores (or status POSTPONED, no scores). */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const { result: _result, status, ...input } = await readJson(req, matchInputSchema);
    const postponed = status === "POSTPONED" ? "POSTPONED" : null;
    const [match] = await withTeams(kv, [await createMatch(kv, { ...input, status: postponed })]);
    return json(match, { status: 201 });
  },
};
