import { defineConfig } from "$fresh/server.ts";
import twind from "$fresh/plugins/twind.ts";
import twindConfig from "./twind.config.ts";
import { apiErrorsPlugin } from "./lib/http/errors.ts";

export default defineConfig({
  plugins: [twind(twindConfig), apiErrorsPlugin],
  // A visitor's page never loads admin code folded into its chunks (lib/fresh/src/fold.ts).
  build: { foldApart: /^admin(-|$)/ },
});
