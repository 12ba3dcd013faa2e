/**
 * Spans and metrics are recorded with `OTEL_DENO=true` only. Being on Deno Deploy
 * (DENO_DEPLOYMENT_ID) does not turn them on: Deno 2.5, Deploy's runtime, panics when a span
 * starts while its OpenTelemetry is off, and Deploy does not document setting `OTEL_DENO`.
 * `.ci/run` runs this file on 2.5 too (with tests/api and the deploy tests).
 */
import assert from "node:assert/strict";

const TELEMETRY = new URL("../../lib/telemetry.ts", import.meta.url).href;

/** TELEMETRY_ENABLED in a fresh Deno with only `env`, after starting and ending a span. */
async function enabledWith(env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { startSpan, TELEMETRY_ENABLED } from "${TELEMETRY}";
       startSpan("probe").end();
       console.log(TELEMETRY_ENABLED);`,
    ],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/root", ...env },
    stdin: "null",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("[telemetry] on with OTEL_DENO=true; off (and no crash) on Deploy without it", async () => {
  assert.equal(await enabledWith({ OTEL_DENO: "true" }), "true");
  assert.equal(await enabledWith({ DENO_DEPLOYMENT_ID: "abc" }), "false");
  assert.equal(await enabledWith({}), "false");
});
