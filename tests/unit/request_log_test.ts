import assert from "node:assert/strict";
import { REQUEST_ID_HEADER, withRequestLog } from "@/lib/http/request_log.ts";

/** Runs `fn` with console.log captured; returns the lines. */
async function captured(fn: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    await fn();
  } finally {
    console.log = original;
  }
  return lines;
}

Deno.test("[request log] one JSON line per request with its id, status and duration", async (t) => {
  const handler = withRequestLog(
    () => Promise.resolve(new Response("made", { status: 201 })),
    true,
  );

  await t.step("a new id, sent back in x-request-id", async () => {
    let res!: Response;
    const lines = await captured(async () => {
      res = await handler(new Request("http://localhost/api/entries", { method: "POST" }));
    });
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]);
    assert.equal(line.msg, "request");
    assert.equal(line.level, "info");
    assert.equal(line.method, "POST");
    assert.equal(line.path, "/api/entries");
    assert.equal(line.status, 201);
    assert.equal(typeof line.ms, "number");
    assert.equal(res.headers.get(REQUEST_ID_HEADER), line.requestId);
    assert.match(line.requestId, /^[0-9a-f-]{36}$/);
  });

  await t.step("a proxy's id is kept; a hostile one is replaced", async () => {
    const lines = await captured(async () => {
      await handler(
        new Request("http://localhost/", { headers: { [REQUEST_ID_HEADER]: "lb-42" } }),
      );
      await handler(
        new Request("http://localhost/", { headers: { [REQUEST_ID_HEADER]: 'a b"c' } }),
      );
    });
    assert.equal(JSON.parse(lines[0]).requestId, "lb-42");
    assert.match(JSON.parse(lines[1]).requestId, /^[0-9a-f-]{36}$/);
  });

  await t.step("a file cached for good carries no id (the log line still has it)", async () => {
    const files = withRequestLog(
      () =>
        Promise.resolve(
          new Response("x", {
            headers: { "cache-control": "public, max-age=31536000, immutable" },
          }),
        ),
      true,
    );
    let res!: Response;
    const lines = await captured(async () => {
      res = await files(new Request("http://localhost/_frsh/js/b/chunk.js"));
    });
    assert.equal(res.headers.get(REQUEST_ID_HEADER), null);
    assert.match(JSON.parse(lines[0]).requestId, /^[0-9a-f-]{36}$/);
  });

  await t.step("nothing is printed when the log is off", async () => {
    const quiet = withRequestLog(() => Promise.resolve(new Response("ok")), false);
    assert.deepEqual(await captured(() => quiet(new Request("http://localhost/"))), []);
  });
});
