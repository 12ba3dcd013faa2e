import type { Handlers } from "$fresh/server.ts";
import { prizeStructureInputSchema } from "@/lib/domain/schemas/competitions.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { listPrizes, setPrizeStructure } from "@/lib/db/prizes.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The prize structure, by position. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listPrizes(kv, competition.id));
  },
  /** Replaces the prize structure: an array of {position, prize, competitionId}. */
  async POST(req, ctx) {
    const id = parseId(ctx.params.id);
    const rows = await readJson(req, prizeStructureInputSchema);
    const prizes = await setPrizeStructure(
      ctx.state.services.kv,
      id,
      rows.map(({ position, prize }) => ({ position, prize })),
    );
    return json({ message: "Prize structure updated", prizes });
  },
};
