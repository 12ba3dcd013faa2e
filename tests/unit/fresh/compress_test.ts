import assert from "node:assert/strict";
import zlib from "node:zlib";
import {
  compressResponse,
  isCompressible,
  MIN_COMPRESS_BYTES,
  negotiate,
  PREFER_FASTEST,
  PREFER_SMALLEST,
} from "@/lib/fresh/src/compress.ts";
import { fixtureHandler, send } from "./helpers.ts";

/** Decodes a body per its Content-Encoding. */
export function decode(bytes: Uint8Array, encoding: string | null): string {
  const raw = encoding === "br"
    ? zlib.brotliDecompressSync(bytes)
    : encoding === "gzip"
    ? zlib.gunzipSync(bytes)
    : bytes;
  return new TextDecoder().decode(raw);
}

const BIG_HTML = "<!DOCTYPE html><html><body>" + '<p class="a b c">hello</p>'.repeat(200) +
  "</body></html>";

function get(accept: string | null, init: { method?: string } = {}): Request {
  const headers = new Headers();
  if (accept !== null) headers.set("accept-encoding", accept);
  return new Request("http://localhost/", { headers, ...init });
}

function html(body: BodyInit | null = BIG_HTML, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    headers: { "content-type": "text/html; charset=utf-8", ...headers },
  });
}

Deno.test("[compress] Accept-Encoding negotiation follows q-values, * and identity", async (t) => {
  const cases: [string | null, ReturnType<typeof negotiate>, ReturnType<typeof negotiate>][] = [
    // header, dynamic (gzip first on ties), fixed files (br first on ties)
    [null, null, null],
    ["", null, null],
    ["identity", null, null],
    ["gzip, deflate, br", "gzip", "br"],
    ["br", "br", "br"],
    ["gzip", "gzip", "gzip"],
    ["GZip;q=0.5, br;q=0.8", "br", "br"],
    ["gzip;q=1.0, br;q=0.9", "gzip", "gzip"],
    ["br;q=0, gzip;q=0", null, null],
    ["*", "gzip", "br"],
    ["*;q=0.5, gzip;q=0", "br", "br"],
    ["br;q=0, *", "gzip", "gzip"],
    ["x-gzip", "gzip", "gzip"],
    ["deflate, identity;q=0", null, null],
    ["gzip;q=abc, br", "br", "br"],
  ];
  for (const [header, dynamic, fixed] of cases) {
    await t.step(`${JSON.stringify(header)} → ${dynamic} / ${fixed}`, () => {
      assert.equal(negotiate(header, PREFER_FASTEST), dynamic);
      assert.equal(negotiate(header, PREFER_SMALLEST), fixed);
    });
  }
});

Deno.test("[compress] text types are compressible; images, fonts in woff2 and streams are not", () => {
  for (
    const type of [
      "text/html; charset=utf-8",
      "application/json",
      "text/css",
      "image/svg+xml",
      "text/javascript; charset=utf-8",
      "application/manifest+json",
      "application/problem+json",
    ]
  ) {
    assert.ok(isCompressible(type), type);
  }
  for (
    const type of [
      null,
      "image/png",
      "image/webp",
      "font/woff2",
      "application/octet-stream",
      "text/event-stream",
      "application/pdf",
    ]
  ) {
    assert.ok(!isCompressible(type), String(type));
  }
});

Deno.test("[compress] dynamic answers", async (t) => {
  await t.step("HTML is gzipped for a browser that accepts gzip and br", async () => {
    const res = await compressResponse(get("gzip, deflate, br"), html());
    assert.equal(res.headers.get("content-encoding"), "gzip");
    assert.equal(res.headers.get("vary"), "Accept-Encoding");
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.headers.get("content-length"), String(bytes.length));
    assert.ok(bytes.length < BIG_HTML.length / 5);
    assert.equal(decode(bytes, "gzip"), BIG_HTML);
  });

  await t.step("brotli when the client prefers it or accepts only it", async () => {
    for (const accept of ["br", "gzip;q=0.2, br"]) {
      const res = await compressResponse(get(accept), html());
      assert.equal(res.headers.get("content-encoding"), "br", accept);
      assert.equal(decode(new Uint8Array(await res.arrayBuffer()), "br"), BIG_HTML);
    }
  });

  await t.step("JSON keeps its status and headers", async () => {
    const data = { rows: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `Row ${i}` })) };
    const res = await compressResponse(
      get("gzip"),
      Response.json(data, { status: 201, headers: { "x-total-count": "100" } }),
    );
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("x-total-count"), "100");
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.deepEqual(JSON.parse(decode(new Uint8Array(await res.arrayBuffer()), "gzip")), data);
  });

  await t.step(
    "no Accept-Encoding or identity only: plain, but Vary says it could differ",
    async () => {
      for (const accept of [null, "identity", "br;q=0, gzip;q=0"]) {
        const res = await compressResponse(get(accept), html());
        assert.equal(res.headers.get("content-encoding"), null);
        assert.equal(res.headers.get("vary"), "Accept-Encoding");
        assert.equal(await res.text(), BIG_HTML);
      }
    },
  );

  await t.step("a body under the threshold is left alone", async () => {
    const small = "<p>" + "x".repeat(MIN_COMPRESS_BYTES - 10) + "</p>";
    const res = await compressResponse(get("gzip, br"), html(small));
    assert.equal(res.headers.get("content-encoding"), null);
    assert.equal(res.headers.get("vary"), null);
    assert.equal(await res.text(), small);
  });

  await t.step("images, encoded bodies, no-transform, HEAD and 304 are left alone", async () => {
    const png = new Response(new Uint8Array(4096), { headers: { "content-type": "image/png" } });
    const encoded = html(BIG_HTML, { "content-encoding": "gzip" });
    const noTransform = html(BIG_HTML, { "cache-control": "no-transform" });
    const notModified = new Response(null, { status: 304 });
    for (const res of [png, encoded, noTransform, notModified]) {
      assert.equal(await compressResponse(get("gzip, br"), res), res);
    }
    const head = html(null);
    assert.equal(await compressResponse(get("gzip", { method: "HEAD" }), head), head);
  });

  await t.step(
    "a stream (server-sent events) passes through untouched and keeps flowing",
    async () => {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const sse = new Response(body, { headers: { "content-type": "text/event-stream" } });
      const res = await compressResponse(get("gzip, br"), sse);
      assert.equal(res, sse);
      const reader = res.body!.getReader();
      controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
      assert.equal(new TextDecoder().decode((await reader.read()).value), "data: 1\n\n");
      await reader.cancel();
    },
  );

  await t.step("a strong ETag gets the coding appended; a weak one is kept", async () => {
    const strong = await compressResponse(get("gzip"), html(BIG_HTML, { etag: '"v1"' }));
    assert.equal(strong.headers.get("etag"), '"v1-gzip"');
    await strong.body?.cancel();
    const weak = await compressResponse(get("br"), html(BIG_HTML, { etag: 'W/"v1"' }));
    assert.equal(weak.headers.get("etag"), 'W/"v1"');
    await weak.body?.cancel();
  });
});

Deno.test("[compress] island chunks and static files are served from variants made once", async (t) => {
  const staticDir = await Deno.makeTempDir();
  const text = "static text line\n".repeat(400);
  await Deno.writeTextFile(`${staticDir}/big.txt`, text);
  await Deno.writeFile(`${staticDir}/pixel.png`, new Uint8Array(4096));
  await Deno.writeFile(`${staticDir}/font.woff2`, new Uint8Array(4096));
  await Deno.writeTextFile(`${staticDir}/tiny.txt`, "tiny\n".repeat(40));
  try {
    const handler = await fixtureHandler({ staticDir });
    const page = await (await send(handler, "/islands")).text();
    // The biggest chunk the page loads (the one with preact).
    let [chunk, plain] = ["", ""];
    for (const [, url] of page.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)) {
      const body = await (await send(handler, url)).text();
      if (body.length > plain.length) [chunk, plain] = [url, body];
    }

    await t.step("a build file is cached for good: no ETag to revalidate", async () => {
      const res = await send(handler, chunk, { headers: { "accept-encoding": "br" } });
      assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assert.equal(res.headers.get("etag"), null);
      assert.equal(res.headers.get("content-encoding"), "br");
      await res.body?.cancel();
    });

    const files: [string, string, boolean][] = [[chunk, plain, false], ["/big.txt", text, true]];
    for (const [path, original, revalidated] of files) {
      await t.step(
        `${path.split("/").pop()}: br, gzip or identity${
          revalidated ? ", each with its ETag" : ""
        }`,
        async () => {
          const etags = new Set<string>();
          for (
            const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], [
              "identity",
              null,
            ]]
          ) {
            const headers = { "accept-encoding": accept! };
            const res = await send(handler, path, { headers });
            assert.equal(res.status, 200);
            assert.equal(res.headers.get("content-encoding"), encoding, accept!);
            assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/);
            const bytes = new Uint8Array(await res.arrayBuffer());
            assert.equal(res.headers.get("content-length"), String(bytes.length));
            assert.equal(decode(bytes, encoding), original);
            if (!revalidated) continue;
            const etag = res.headers.get("etag")!;
            etags.add(etag);
            const again = await send(handler, path, {
              headers: { ...headers, "if-none-match": etag },
            });
            assert.equal(again.status, 304);
            assert.equal(again.headers.get("etag"), etag);
            assert.equal(again.body, null);
          }
          assert.equal(etags.size, revalidated ? 3 : 0, "one ETag per coding");
        },
      );
    }

    await t.step("a stale ETag of another coding gets the full answer", async () => {
      const br = await send(handler, "/big.txt", { headers: { "accept-encoding": "br" } });
      await br.body?.cancel();
      const res = await send(handler, "/big.txt", {
        headers: { "accept-encoding": "gzip", "if-none-match": br.headers.get("etag")! },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-encoding"), "gzip");
      await res.body?.cancel();
    });

    await t.step("images, woff2 and tiny files are sent as they are", async () => {
      for (const path of ["/pixel.png", "/font.woff2", "/tiny.txt"]) {
        const res = await send(handler, path, { headers: { "accept-encoding": "gzip, br" } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-encoding"), null, path);
        await res.body?.cancel();
      }
    });

    await t.step("HEAD has the encoded length and no body", async () => {
      const res = await send(handler, "/big.txt", {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      });
      assert.equal(res.headers.get("content-encoding"), "br");
      assert.ok(Number(res.headers.get("content-length")) < text.length / 10);
      assert.equal(res.body, null);
    });
  } finally {
    await Deno.remove(staticDir, { recursive: true });
  }
});
