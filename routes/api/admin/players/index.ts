import type { Handlers } from "$fresh/server.ts";
import { playerInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { createPlayer, withTeam } from "@/lib/db/players.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Creates a player: {name, position, teamId, salary, imageUrl, goals, assists, cleanSheets}. */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const input = await readJson(req, playerInputSchema);
    const [player] = await withTeam(kv, [await createPlayer(kv, input)]);
    return json(player, { status: 201 });
  },
};
