#!/usr/bin/env -S deno run -A --watch=static/,routes/,islands/,components/,lib/
/** Development entry: `deno task dev` (live reload), `dev.ts gen` (manifest), `dev.ts build`. */
import { dev } from "$fresh/dev.ts";
import config from "./fresh.config.ts";

await dev(import.meta.url, "./main.ts", config);
