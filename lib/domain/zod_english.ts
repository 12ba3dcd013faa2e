/**
 * zod's English issue messages ("Invalid input: expected string, received undefined") for the
 * schemas written with `zod/mini`, which ships no locale (zod classic loaded this one itself).
 * Import it for its effect, next to `import * as z from "zod/mini"`: re-exporting `z` from here
 * would defeat tree shaking and put all of zod back into the island bundles.
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());
