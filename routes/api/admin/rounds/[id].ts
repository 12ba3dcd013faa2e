import type { Handlers } from "$fresh/server.ts";
import { roundInputSchema } from "@/lib/domain/schemas/rounds.ts";
import { deleteRound, getRoundWithMatches, updateRound } from "@/lib/db/rounds.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One round with its matches. */
  async GET(_req, ctx) {
    const round = await getRoundWithMatches(ctx.state.services.kv, parseId(ctx.params.id));
    if (!round) throw new NotFoundError("Round not found");
    return json(round);
  },
  /** Renames the round or changes its matches (409 once a contest on it has entries). */
  async PUT(req, ctx) {
    const { kv } = ctx.state.services;
    const id = parseId(ctx.params.id);
    await updateRound(kv, id, await readJson(req, roundInputSchema));
    return json(await getRoundWithMatches(kv, id));
  },
  /** Deletes a round; 409 naming the competitions that still use it. */
  async DELETE(_req, ctx) {
    await deleteRound(ctx.state.services.kv, parseId(ctx.params.id));
    return json({ message: "Round deleted" });
  },
};
