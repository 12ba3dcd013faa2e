import type { Handlers } from "$fresh/server.ts";
import { playerIdsBodySchema } from "@/lib/domain/schemas/competitions.ts";
import {
  addCompetitionPlayers,
  listCompetitionPlayers,
  removeCompetitionPlayers,
} from "@/lib/db/competition_players.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const plural = (n: number) => `${n} player${n === 1 ? "" : "s"}`;

export const handler: Handlers<unknown, State> = {
  /** The players of the competition, with team, by salary descending. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listCompetitionPlayers(kv, competition.id));
  },
  /** Adds players: {playerIds}. */
  async POST(req, ctx) {
    const id = parseId(ctx.params.id);
    const { playerIds } = await readJson(req, playerIdsBodySchema);
    const added = await addCompetitionPlayers(ctx.state.services.kv, id, playerIds);
    return json({ message: `Added ${plural(added)} to the competition`, count: added });
  },
  /** Removes players: {playerIds}. */
  async DELETE(req, ctx) {
    const id = parseId(ctx.params.id);
    const { playerIds } = await readJson(req, playerIdsBodySchema);
    const removed = await removeCompetitionPlayers(ctx.state.services.kv, id, playerIds);
    return json({ message: `Removed ${plural(removed)} from the competition`, count: removed });
  },
};
