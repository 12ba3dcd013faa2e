import type { Handlers } from "$fresh/server.ts";
import { playerInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { createPlayer, listPlayers, withTeam } from "@/lib/db/players.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every player with their club, by name. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const players = await withTeam(kv, await listPlayers(kv));
    return json(players.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id));
  },
  /** Creates a player: {name, position, teamId, salary, imageUrl, goals, assists, cleanSheets}. */
  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const input = await readJson(req, playerInputSchema);
    const [player] = await withTeam(kv, [await createPlayer(kv, input)]);
    return json(player, { status: 201 });
  },
};
