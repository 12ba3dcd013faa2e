import type { Handlers } from "$fresh/server.ts";
import { roundInputSchema } from "@/lib/domain/schemas/rounds.ts";
import { createRound, getRoundWithMatches, listRounds } from "@/lib/db/rounds.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every round with its matches (homeTeam and awayTeam), by first kick-off. */
  async GET(_req, ctx) {
    return json(await listRounds(ctx.state.services.kv));
  },
  /** {name, matchIds} → the round with its matches (400 unknown match, a club playing twice). */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const round = await createRound(kv, await readJson(req, roundInputSchema));
    return json(await getRoundWithMatches(kv, round.id), { status: 201 });
  },
};
