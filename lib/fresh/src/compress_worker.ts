/**
 * Worker side of `compressBest`: brotli 11 and gzip 9 take seconds on a big bundle, and Deno's
 * `node:zlib` callbacks run them on the calling thread, so they run here instead.
 */
/// <reference lib="deno.worker" />
import zlib from "node:zlib";

interface Job {
  id: number;
  bytes: Uint8Array;
  encoding: "br" | "gzip";
}

self.onmessage = (event: MessageEvent<Job>) => {
  const { id, bytes, encoding } = event.data;
  const out = encoding === "br"
    ? zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    })
    : zlib.gzipSync(bytes, { level: 9 });
  const result = new Uint8Array(out);
  self.postMessage({ id, bytes: result }, [result.buffer]);
};
