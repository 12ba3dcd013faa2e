import type { Handlers } from "$fresh/server.ts";
import { playerPatchSchema } from "@/lib/domain/schemas/catalog.ts";
import { deletePlayer, updatePlayer, withTeam } from "@/lib/db/players.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Changes any of the player fields, or the salary alone. */
  async PATCH(req, ctx) {
    const { kv } = ctx.state.services;
    const id = parseId(ctx.params.id);
    const patch = await readJson(req, playerPatchSchema);
    const [player] = await withTeam(kv, [await updatePlayer(kv, id, patch)]);
    return json(player);
  },
  /** Deletes a player no entry picked (409 with the reason otherwise). */
  async DELETE(_req, ctx) {
    await deletePlayer(ctx.state.services.kv, parseId(ctx.params.id));
    return json({ message: "Player deleted" });
  },
};
