import assert from "node:assert/strict";
import zlib from "node:zlib";
import { withTestApp } from "@/tests/helpers/app.ts";

function decode(bytes: Uint8Array, encoding: string | null): string {
  const raw = encoding === "br"
    ? zlib.brotliDecompressSync(bytes)
    : encoding === "gzip"
    ? zlib.gunzipSync(bytes)
    : bytes;
  return new TextDecoder().decode(raw);
}

Deno.test("[api] pages and JSON come compressed per Accept-Encoding", async (t) => {
  await withTestApp(async (app) => {
    const plainHome = await (await app.request("/")).text();
    const plainList = await (await app.request("/api/competitions")).text();
    assert.ok(plainList.length > 1024, "the demo list is worth compressing");

    for (
      const [path, plain, type] of [["/", plainHome, "text/html"], [
        "/api/competitions",
        plainList,
        "application/json",
      ]]
    ) {
      await t.step(`${path}: gzip, br, or plain`, async () => {
        // Both answers come from the render cache: compressed once, so the smaller coding first.
        for (
          const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], [
            "identity",
            null,
          ]]
        ) {
          const res = await app.request(path, { headers: { "accept-encoding": accept! } });
          assert.equal(res.status, 200);
          assert.ok(res.headers.get("content-type")?.startsWith(type!));
          assert.equal(res.headers.get("content-encoding"), encoding, accept!);
          assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/);
          assert.ok(res.headers.get("content-security-policy"), "security headers kept");
          const bytes = new Uint8Array(await res.arrayBuffer());
          assert.equal(res.headers.get("content-length"), String(bytes.length));
          const text = decode(bytes, encoding);
          if (path === "/") assert.match(text, /Play Fantasy Football With Your Community/);
          else assert.deepEqual(JSON.parse(text), JSON.parse(plain!));
          if (encoding) assert.ok(bytes.length < plain!.length / 3, `${path} ${encoding}`);
        }
      });
    }

    await t.step("bundle scripts carry nosniff, not the document-only headers", async () => {
      const script = plainHome.match(/<script type="module" src="([^"]+)"><\/script>/)![1];
      const res = await app.request(script, { headers: { "accept-encoding": "br" } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-encoding"), "br");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      for (const name of ["content-security-policy", "x-frame-options", "permissions-policy"]) {
        assert.equal(res.headers.get(name), null, name);
      }
      await res.body?.cancel();
    });

    await t.step("a tiny JSON answer is sent as it is", async () => {
      const res = await app.request("/healthz", { headers: { "accept-encoding": "gzip, br" } });
      assert.equal(res.headers.get("content-encoding"), null);
      assert.deepEqual(await res.json(), { ok: true });
    });
  }, { seed: true });
});
