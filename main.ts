/** Production entry: `deno task start` (the shell's `startApp` reads the environment). */
import manifest from "./fresh.gen.ts";
import config from "./fresh.config.ts";
import { startApp } from "./lib/app.ts";

await startApp(manifest, config);
