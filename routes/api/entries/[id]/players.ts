import type { Handlers } from "$fresh/server.ts";
import { entryPlayers, findEntry } from "../../../../lib/api/entry_details.ts";
import { json, NotFoundError } from "../../../../lib/http/errors.ts";
import { services } from "../../../../lib/services.ts";

export const handler: Handlers = {
  /** The entry's players: [{id, name, position, team: {name, shortName, logoUrl}}]. */
  async GET(_req, ctx) {
    const { kv } = services();
    const entry = await findEntry(kv, ctx.params.id);
    if (!entry) throw new NotFoundError("Entry not found");
    const players = await entryPlayers(kv, entry);
    return json(players.map(({ id, name, position, imageUrl, team }) => ({
      id,
      name,
      position,
      imageUrl,
      team: team && { name: team.name, shortName: team.shortName, logoUrl: team.logoUrl },
    })));
  },
};
