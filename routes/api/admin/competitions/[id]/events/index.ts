import type { Handlers } from "$fresh/server.ts";
import { gameEventInputSchema } from "@/lib/domain/schemas/match_day.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent, listGameEvents } from "@/lib/db/events.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The events of the competition, newest first, with player and team. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listGameEvents(kv, competition.id));
  },
  /** Records {playerId, eventType, description, minute}; 409 unless the competition is LIVE. */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const id = parseId(ctx.params.id);
    const input = await readJson(req, gameEventInputSchema);
    return json(await createGameEvent(kv, id, input), { status: 201 });
  },
};
