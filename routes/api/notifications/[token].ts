import type { Handlers } from "$fresh/server.ts";
import { changeNotifySettings, notifySettings } from "@/lib/api/notifications.ts";
import { notifySettingsSchema } from "@/lib/domain/schemas/notifications.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The notification settings of the entry behind a private edit token (404 unknown). */
  async GET(_req, ctx) {
    return json(await notifySettings(ctx.state.services, ctx.params.token));
  },
  /**
   * {deadlineEmail?, resultEmail?, pushScored?, pushFinal?, push?} from My entries → the
   * settings; an opt-in turned on records its consent time and "my-entries" (400 push opt-in
   * without a subscription; 409 an address that bounced, or a refunded entry).
   */
  async PUT(req, ctx) {
    const input = await readJson(req, notifySettingsSchema);
    const { services } = ctx.state;
    return json(await changeNotifySettings(services, ctx.params.token, input, "my-entries"));
  },
};
