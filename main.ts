/**
 * The Deno Deploy entry, also `deno task preview` (one isolate); `npm start` serves serve.ts on
 * every core. The periodic jobs are registered first, at the top level and before anything is
 * served: Deploy runs only the `Deno.cron` jobs registered so (see lib/jobs.ts).
 */
import manifest from "./fresh.gen.ts";
import config from "./fresh.config.ts";
import { startApp } from "./lib/app.ts";
import { registerCronJobs } from "./lib/jobs.ts";

const cronJobs = registerCronJobs();

/** The running app (tests stop it through `shutdown`). */
export const app = await startApp(manifest, config, { cronJobs });
