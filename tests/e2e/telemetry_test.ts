/**
 * With `OTEL_DENO=true` the app's traces and metrics reach an OpenTelemetry collector (here a
 * local one taking OTLP over HTTP/JSON): a span per request named by its route, KV spans (lists
 * too), and the KV round-trip metric by operation.
 */
import assert from "node:assert/strict";
import { freePort } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("[telemetry] spans are named by route and KV round trips are measured", async () => {
  const received: string[] = [];
  const collector = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push(`${new URL(req.url).pathname} ${await req.text()}`);
    return Response.json({});
  });
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DENO_KV_PATH: ":memory:",
      DEMO_DATA: "1",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "telemetry-test-password",
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.addr.port}`,
      OTEL_SERVICE_NAME: "fantasy-contests-test",
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitFor("the server is ready", async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      await res?.body?.cancel();
      return res?.ok;
    }, { timeoutMs: 60_000, everyMs: 50 });
    for (const path of ["/leaderboard/1", "/api/competitions/1"]) {
      const res = await fetch(`${url}${path}`);
      await res.body?.cancel();
      assert.equal(res.status, 200, path);
    }
  } finally {
    child.kill("SIGTERM"); // the exit flushes what is not exported yet
    await child.status;
    await collector.shutdown();
  }
  const traces = received.filter((r) => r.startsWith("/v1/traces")).join("\n");
  const metrics = received.filter((r) => r.startsWith("/v1/metrics")).join("\n");
  assert.match(traces, /"name":\s*"GET \/leaderboard\/:id"/);
  assert.match(traces, /"name":\s*"GET \/api\/competitions\/:id"/);
  assert.match(traces, /"name":\s*"kv\.getMany"/);
  assert.match(traces, /"name":\s*"kv\.list"/);
  assert.match(traces, /"http\.route"/);
  assert.match(metrics, /"name":\s*"kv\.operations"/);
  assert.match(metrics, /"key":\s*"op",\s*"value":\s*\{\s*"stringValue":\s*"list"/);
});
