import type { Handlers } from "$fresh/server.ts";
import { performancesBodySchema } from "@/lib/domain/schemas/match_day.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { listPerformances, savePerformances } from "@/lib/db/performances.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One row per competition player: {player, performance}. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listPerformances(kv, competition.id));
  },
  /** Saves {performances: [...]}; out-of-range values are 400, never clamped. */
  async POST(req, ctx) {
    const id = parseId(ctx.params.id);
    const { performances } = await readJson(req, performancesBodySchema);
    const inputs = performances.map(({ player: _player, ...stats }) => stats);
    const saved = await savePerformances(ctx.state.services.kv, id, inputs);
    return json({ message: "Player performances updated successfully", performances: saved });
  },
};
