import { requireCompetition } from "@/lib/db/competitions.ts";
import { lockedPickIds } from "@/lib/api/pick_privacy.ts";
import type { Handlers } from "$fresh/server.ts";
import { findEntry } from "@/lib/api/entry_details.ts";
import { entryPlayers } from "@/lib/db/players.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The entry's players: [{id, name, position, team: {name, shortName, logoUrl}}]. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const entry = await findEntry(kv, ctx.params.id);
    if (!entry) throw new NotFoundError("Entry not found");
    const competition = await requireCompetition(kv, entry.competitionId);
    const all = await entryPlayers(kv, entry);
    // Picks stay private until they lock (pick_privacy.ts).
    const shown = await lockedPickIds(kv, competition, all);
    const players = all.filter((p) => shown.has(p.id));
    return json(players.map(({ id, name, position, imageUrl, team }) => ({
      id,
      name,
      position,
      imageUrl,
      team: team && { name: team.name, shortName: team.shortName, logoUrl: team.logoUrl },
    })));
  },
};
