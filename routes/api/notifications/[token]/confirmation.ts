import type { Handlers } from "$fresh/server.ts";
import { changeNotifySettings } from "@/lib/api/notifications.ts";
import { notifySettingsSchema } from "@/lib/domain/schemas/notifications.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * PUT /api/notifications/{token} made from the confirmation page: an opt-in turned on
   * records its consent as given on "confirmation", since this route is what the server knows of it.
   */
  async PUT(req, ctx) {
    const input = await readJson(req, notifySettingsSchema);
    const { services } = ctx.state;
    return json(await changeNotifySettings(services, ctx.params.token, input, "confirmation"));
  },
};
