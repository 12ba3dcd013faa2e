/** Single-isolate entry (`deno task dev`, `deno task preview`); `npm start` serves serve.ts on every core. */
import manifest from "./fresh.gen.ts";
import config from "./fresh.config.ts";
import { startApp } from "./lib/app.ts";

await startApp(manifest, config);
