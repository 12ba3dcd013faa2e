/**
 * Worker side of `compressBest`: brotli 11 and gzip 9 take seconds on a big bundle, and Deno's
 * `node:zlib` callbacks run them on the calling thread, so they run here instead.
 */
/// <reference lib="deno.worker" />
import { compressMax } from "./compress.ts";

interface Job {
  id: number;
  bytes: Uint8Array;
  encoding: "br" | "gzip";
}

self.onmessage = (event: MessageEvent<Job>) => {
  const { id, bytes, encoding } = event.data;
  const result = new Uint8Array(compressMax(bytes, encoding));
  self.postMessage({ id, bytes: result }, [result.buffer]);
};
