/**
 * The `deno serve` entry: `npm start` runs `deno serve --parallel` over it (scripts/start.ts),
 * so every core serves the app; each isolate builds its own services over the shared KV store.
 */
import manifest from "./fresh.gen.ts";
import config from "./fresh.config.ts";
import { serveIsolate } from "./lib/app.ts";

export default await serveIsolate(manifest, config);
