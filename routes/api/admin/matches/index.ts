import type { Handlers } from "$fresh/server.ts";
import { matchInputSchema } from "../../../../lib/domain/schemas.ts";
import { createMatch, listMatches, withTeams } from "../../../../lib/db/matches.ts";
import { json } from "../../../../lib/http/errors.ts";
import { readJson } from "../../../../lib/http/validate.ts";
import { services } from "../../../../lib/services.ts";

export const handler: Handlers = {
  /** Every match with homeTeam and awayTeam, by kickoff time. */
  async GET() {
    return json(await listMatches(services().kv));
  },
  /** Creates a match; result and status follow the scores (SPEC §4). */
  async POST(req) {
    const { kv } = services();
    const { result: _result, status: _status, ...input } = await readJson(req, matchInputSchema);
    const [match] = await withTeams(kv, [await createMatch(kv, input)]);
    return json(match, { status: 201 });
  },
};
