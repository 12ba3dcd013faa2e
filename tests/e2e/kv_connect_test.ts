/**
 * DENO_KV_PATH as a KV Connect URL (several machines on one remote KV): the app opens
 * the remote store with DENO_KV_ACCESS_TOKEN (Deno's metadata exchange carries it as a bearer
 * token), and a store that refuses it stops the start with a one-line error.
 */
import assert from "node:assert/strict";
import { freePort } from "@/tests/helpers/server.ts";

Deno.test("[kv connect] npm start opens a KV Connect URL with DENO_KV_ACCESS_TOKEN", async () => {
  const seen: string[] = [];
  const remote = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(`${req.method} ${req.headers.get("authorization")} ${await req.text()}`);
    return new Response("invalid token", { status: 401 });
  });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/start.ts"],
      cwd: new URL("../../", import.meta.url),
      env: {
        PORT: String(freePort()),
        DENO_KV_PATH: `http://127.0.0.1:${remote.addr.port}`,
        DENO_KV_ACCESS_TOKEN: "ddp_test_token",
        DENO_JOBS: "1",
        NO_COLOR: "1",
      },
      stdin: "null",
    }).output();
    const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.equal(code, 1, output);
    assert.match(output, /Error: cannot open the KV store at "http:\/\/127\.0\.0\.1:\d+": .*401/);
    assert.ok(seen.length > 0, "the metadata endpoint was asked");
    assert.match(seen[0], /^POST Bearer ddp_test_token \{"supportedVersions":/);
  } finally {
    await remote.shutdown();
  }
});

Deno.test("[kv connect] a KV Connect URL without a token is a configuration error", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/start.ts"],
    cwd: new URL("../../", import.meta.url),
    env: {
      DENO_KV_PATH: "https://kv.example.com/connect",
      DENO_KV_ACCESS_TOKEN: "",
      NO_COLOR: "1",
    },
    stdin: "null",
  }).output();
  assert.equal(code, 1);
  assert.equal(
    new TextDecoder().decode(stderr).trim(),
    "Configuration error: DENO_KV_PATH is a KV Connect URL: set DENO_KV_ACCESS_TOKEN too",
  );
});
