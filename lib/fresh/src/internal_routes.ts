/**
 * The framework's own routes under `/_frsh/`: the island bundle files (with their brotli and
 * gzip variants, cached for a year under the build id), and in dev mode the live-reload script
 * and its event stream.
 */
import {
  type EncodedFile,
  encodeFile,
  type Encoding,
  PREFER_SMALLEST,
  serveEncoded,
} from "./compress.ts";
import { precompressStatic } from "./static.ts";
import { type App, isRead } from "./app_state.ts";

const REFRESH_JS = `(() => {
  const id = document.currentScript?.dataset.buildId;
  const source = new EventSource("/_frsh/alive");
  source.onmessage = (event) => { if (event.data !== id) location.reload(); };
})();
`;

/** Answers a request under `/_frsh/` (404 for anything unknown or stale). */
export async function serveInternal(app: App, req: Request, url: URL): Promise<Response> {
  if (url.pathname === "/_frsh/refresh.js" && app.dev) {
    return new Response(REFRESH_JS, {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  if (url.pathname === "/_frsh/alive" && app.dev) return aliveStream(app.build.buildId);
  const match = url.pathname.match(/^\/_frsh\/js\/([^/]+)\/([^/]+)$/);
  if (!match || match[1] !== app.build.buildId || !isRead(req)) {
    return new Response("Not Found", { status: 404 });
  }
  const file = await chunk(app, match[2]);
  if (!file) return new Response("Not Found", { status: 404 });
  const headers = new Headers({ "content-type": JS_TYPE });
  headers.set("cache-control", app.dev ? "no-cache" : "public, max-age=31536000, immutable");
  return serveEncoded(req, file, headers, { revalidated: app.dev });
}

/** Module scripts are always read as UTF-8: a charset would only cost bytes on every file. */
const JS_TYPE = "text/javascript";

/**
 * A bundle file with its brotli/gzip variants (null: no such file): those of the build step, or
 * compressed once per process.
 */
function chunk(app: App, name: string): Promise<EncodedFile | null> {
  let file = app.chunks.get(name);
  if (!file) {
    file = (async () => {
      const bytes = await app.build.read(name);
      if (!bytes) return null;
      const made: Partial<Record<Encoding, Uint8Array>> = {};
      for (const encoding of PREFER_SMALLEST) {
        const variant = await app.build.readEncoded(name, encoding);
        if (variant) made[encoding] = variant;
      }
      // The names hold a content hash: they make the ETag.
      return encodeFile(bytes, JS_TYPE, `"${name.replace(/\.js$/, "")}"`, made);
    })();
    app.chunks.set(name, file);
  }
  return file;
}

/**
 * Compresses, in the background, what the build step did not: every bundle file of an in-memory
 * build, and the static text files without variants in the snapshot. Resolves once the static
 * files are read and hashed (a few milliseconds), so no file read outlives the start-up.
 */
export async function precompress(app: App): Promise<void> {
  if (!app.build.prebuilt) {
    for (const name of Object.keys(app.build.deps)) chunk(app, name).catch(() => {});
  }
  await precompressStatic(app.staticFiles.values(), app.staticVariants);
}

/** Open live-reload streams, closed on SIGINT/SIGTERM so a graceful shutdown does not wait. */
const aliveStreams = new Set<ReadableStreamDefaultController<Uint8Array>>();
let closeOnSignal = false;

function closeAliveStreams(): void {
  for (const controller of aliveStreams) controller.close();
  aliveStreams.clear();
}

/** Server-sent events for live reload: sends the BUILD_ID, then keeps the stream open. */
function aliveStream(buildId: string): Response {
  if (!closeOnSignal && Deno.build.os !== "windows") {
    closeOnSignal = true;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, closeAliveStreams);
    }
  }
  let self: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      self = controller;
      aliveStreams.add(controller);
      controller.enqueue(new TextEncoder().encode(`retry: 500\ndata: ${buildId}\n\n`));
    },
    cancel() {
      aliveStreams.delete(self);
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
