import type { Handlers } from "$fresh/server.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import { getCancellationJob } from "@/lib/payments/cancellation.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The progress of the competition's cancellation job (404 when it was never cancelled). */
  async GET(_req, ctx) {
    const job = await getCancellationJob(ctx.state.services.kv, parseId(ctx.params.id));
    if (!job) throw new NotFoundError("This competition was not cancelled");
    return json(job);
  },
};
