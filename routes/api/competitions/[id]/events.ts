import type { Handlers } from "$fresh/server.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { listGameEvents } from "@/lib/db/events.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const DEFAULT_EVENT_LIMIT = 50;
const MAX_EVENT_LIMIT = 200;

function parseLimit(value: string | null): number {
  if (value === null || value === "") return DEFAULT_EVENT_LIMIT;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_EVENT_LIMIT) return n;
  throw fieldError("limit", `limit must be a whole number from 1 to ${MAX_EVENT_LIMIT}`);
}

export const handler: Handlers<unknown, State> = {
  /**
   * The competition's game events, newest first (the 50 latest, or `?limit=` up to 200), each
   * with player {id, name, position, team {shortName, name}}; 404 for an unknown competition.
   */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const limit = parseLimit(ctx.url.searchParams.get("limit"));
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listGameEvents(kv, competition.id, { limit }));
  },
};
