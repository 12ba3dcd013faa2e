/**
 * Admin imports through HTTP on both servers (`npm start`'s `node:http` server and main.ts's
 * `Deno.serve`): the README's 5,000-row players file is previewed and applied, and bodies over
 * the 1 MiB limit (1.1 MiB, 2 MB, 10 MB; sized and streamed) get the 413 with its message at
 * once, on a connection that goes on serving. (The admin log once read a clone of the body and
 * cancelled it, and the handler's read of a body over ~128 KB then never ended.)
 */
import assert from "node:assert/strict";
import { IMPORT_TOO_LARGE } from "@/lib/domain/schemas/imports.ts";
import {
  ADMIN_HEADERS,
  type AppProcess,
  SERVER_KINDS,
  startAppProcess,
} from "@/tests/helpers/app_processes.ts";
import { clubsCsv, importBody, playersCsv } from "@/tests/helpers/import_files.ts";
import { startServer } from "@/tests/helpers/server.ts";

/** A bound on each request, so that a server that never answers fails the test, not hangs it. */
const NO_ANSWER_MS = 120_000;
const JSON_HEADERS = { ...ADMIN_HEADERS, "content-type": "application/json" };

function post(server: Pick<AppProcess, "url">, path: string, body: BodyInit) {
  return fetch(`${server.url}/api/admin/imports/${path}`, {
    method: "POST",
    headers: JSON_HEADERS,
    body,
    signal: AbortSignal.timeout(NO_ANSWER_MS),
  });
}

/** Applies a file: the NDJSON progress, whose last line is the finished import. */
async function apply(server: Pick<AppProcess, "url">, body: unknown) {
  const res = await post(server, "apply", JSON.stringify(body));
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const last = JSON.parse(text.trim().split("\n").at(-1)!);
  assert.equal(last.type, "done", text.slice(-500));
  return last.job as { status: string; rows: number; counts: Record<string, number> };
}

for (const kind of SERVER_KINDS) {
  Deno.test(`[imports] through HTTP on ${kind}: the 5,000-row file applies; oversized files get the 413 at once`, async (t) => {
    const server = await startAppProcess(kind);
    try {
      await t.step("the 5,000-row players file is previewed and applied whole", async () => {
        const clubs = await apply(server, importBody("clubs", clubsCsv()));
        assert.equal(clubs.status, "APPLIED");
        const file = importBody("players", playersCsv(5000));
        assert.ok(JSON.stringify(file).length > 128 * 1024, "the file is over 128 KB");
        const preview = await post(server, "preview", JSON.stringify(file));
        assert.equal(preview.status, 200);
        assert.equal((await preview.json()).counts.create, 5000);
        const job = await apply(server, file);
        assert.equal(job.status, "APPLIED");
        assert.equal(job.rows, 5000);
        assert.equal(job.counts.create, 5000);
      });

      await t.step(
        "1.1 MiB, 2 MB and 10 MB files: 413 with the message, sized and streamed",
        async () => {
          for (const bytes of [1.1 * 1024 * 1024, 2_000_000, 10_000_000]) {
            const body = new TextEncoder().encode(
              JSON.stringify(importBody("players", "x".repeat(Math.round(bytes)))),
            );
            for (const shape of ["sized", "streamed"]) {
              for (const path of ["preview", "apply"]) {
                const label = `${path}, ${bytes} bytes, ${shape}`;
                const res = await post(
                  server,
                  path,
                  shape === "sized" ? body : ReadableStream.from([body]),
                );
                assert.equal(res.status, 413, label);
                assert.match(res.headers.get("content-type") ?? "", /application\/json/, label);
                assert.deepEqual(await res.json(), { message: IMPORT_TOO_LARGE }, label);
              }
            }
          }
          const after = await fetch(`${server.url}/api/admin/imports`, { headers: ADMIN_HEADERS });
          assert.equal(after.status, 200, "the server goes on answering");
          const history: { fileName: string; status: string }[] = await after.json();
          assert.deepEqual(history.map((j) => j.status), ["APPLIED", "APPLIED"]);
        },
      );
    } finally {
      await server.stop();
    }
  });
}

Deno.test("[imports] npm start killed (-9) during an apply: after a restart, Resume finishes the file, each row once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "import-kill-" });
  const env = { DENO_KV_PATH: `${dir}/app.kv`, DEMO_DATA: "0", DENO_JOBS: "1" };
  let server = await startServer({ env });
  try {
    const clubs = await apply(server, importBody("clubs", clubsCsv()));
    assert.equal(clubs.status, "APPLIED");
    const res = await fetch(`${server.url}/api/admin/imports/apply`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(importBody("players", playersCsv(5000))),
    });
    assert.equal(res.status, 200);
    // Read the progress until a few chunks are in, then kill the server mid-apply.
    const lines = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let job: { id: number; chunksDone: number; chunks: number } | null = null;
    while (!job || job.chunksDone < 5) {
      const { value, done } = await lines.read();
      assert.ok(!done, "the apply ended before it could be killed");
      buffer += value;
      const complete = buffer.split("\n");
      buffer = complete.pop()!;
      for (const line of complete.filter(Boolean)) job = JSON.parse(line).job;
    }
    await server.kill();
    await lines.cancel().catch(() => undefined);

    server = await startServer({ env });
    const history = await (await fetch(`${server.url}/api/admin/imports`, {
      headers: ADMIN_HEADERS,
    })).json();
    const stopped = history.find((j: { id: number }) => j.id === job!.id);
    assert.equal(stopped.status, "APPLYING");
    assert.ok(stopped.chunksDone >= 5 && stopped.chunksDone < stopped.chunks);

    const resumed = await post(server, `${job.id}/resume`, "");
    const text = await resumed.text();
    assert.equal(resumed.status, 200, text);
    assert.equal(JSON.parse(text.trim().split("\n").at(-1)!).job.status, "APPLIED");
    const exported = await fetch(
      `${server.url}/api/admin/imports/export?kind=players&format=csv`,
      { headers: ADMIN_HEADERS },
    );
    const rows = (await exported.text()).trim().split("\r\n").slice(1);
    assert.equal(rows.length, 5000);
    assert.equal(new Set(rows.map((r) => r.split(",")[0])).size, 5000, "each row once");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
