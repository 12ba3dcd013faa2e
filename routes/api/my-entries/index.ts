import type { Handlers } from "$fresh/server.ts";
import { entrySummaries } from "@/lib/api/my_entries.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { teamIdListSchema } from "@/lib/domain/schemas/public.ts";
import type { Entry } from "@/lib/domain/types.ts";
import { json } from "@/lib/http/errors.ts";
import { parseWith } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * ?teamIds=FFT-…,FFT-… (the ones this browser made) → their summaries, newest first; unknown
   * team ids are left out. Team ids are the visitor's own secret, so nothing else is asked.
   */
  async GET(_req, ctx) {
    const { kv, leaderboards } = ctx.state.services;
    const raw = ctx.url.searchParams.get("teamIds") ?? "";
    const teamIds = parseWith(teamIdListSchema, raw === "" ? [] : raw.split(","));
    const entries = await Promise.all([...new Set(teamIds)].map((id) => getEntryByTeamId(kv, id)));
    return json(
      await entrySummaries(kv, leaderboards, entries.filter((e): e is Entry => e !== null)),
    );
  },
};
