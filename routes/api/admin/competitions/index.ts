import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { competitionInputSchema } from "@/lib/domain/schemas/competitions.ts";
import { createCompetition, listCompetitions } from "@/lib/db/competitions.ts";
import { whyNoValidTeam } from "@/lib/db/competition_players.ts";
import { listOffMatchFindings } from "@/lib/db/match_players.ts";
import { json } from "@/lib/http/errors.ts";
import { cancellationProgress, listCancellations } from "@/lib/payments/cancellation.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * Every competition with its entry count, revenue, while visitors cannot see it why
   * (`hiddenReason`), the players it offers from outside its match when the start-up check
   * found some it could not remove (`offMatchPlayers`), and for a cancelled one how far its
   * refunds got, by deadline.
   */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const [competitions, jobs] = await Promise.all([
      listCompetitions(kv),
      listCancellations(kv),
    ]);
    const jobOf = new Map(jobs.map((job) => [job.competitionId, job]));
    const offMatch = await listOffMatchFindings(kv, competitions);
    return json(
      await Promise.all(competitions.map(async (c) => ({
        ...adminCompetitionRow(c),
        hiddenReason: c.status === "UPCOMING" ? await whyNoValidTeam(kv, c) : null,
        cancellation: cancellationProgress(jobOf.get(c.id)),
        offMatchPlayers: offMatch.get(c.id) ?? null,
      }))),
    );
  },
  /** Creates a competition from the form fields; its status follows the clock unless told not to. */
  async POST(req, ctx) {
    const { force: _force, reason: _reason, ...input } = await readJson(
      req,
      competitionInputSchema,
    );
    const competition = await createCompetition(ctx.state.services.kv, {
      ...input,
      autoStatus: input.autoStatus ?? true,
    });
    return json(adminCompetitionRow(competition), { status: 201 });
  },
};
