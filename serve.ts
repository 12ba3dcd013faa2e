/**
 * The `npm start` server (scripts/start.ts runs it): one isolate per core (SERVE_ISOLATES,
 * default 1), each a Worker running serve_isolate.ts, which builds its own services over the
 * shared KV store and listens on the same port (`reusePort`, as `deno serve --parallel` does).
 * Serving through `node:http` instead of `deno serve` lets /ws refuse an oversized frame from its
 * header (see lib/http/node_server.ts). SIGINT/SIGTERM stop every isolate cleanly, then exit.
 */
const SHUTDOWN_TIMEOUT_MS = 5_000;
const isolates = Math.max(1, Number(Deno.env.get("SERVE_ISOLATES") ?? 1));
const port = Deno.env.get("PORT") ?? "8000";

/** The next message of `worker` (or why it failed). */
function answer(worker: Worker): Promise<string> {
  return new Promise((resolve) => {
    worker.addEventListener("message", (event) => resolve(String(event.data)), { once: true });
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      resolve(`failed: ${event.message}`);
    }, { once: true });
  });
}

const workers = Array.from(
  { length: isolates },
  (_, i) =>
    new Worker(new URL("./serve_isolate.ts", import.meta.url), {
      type: "module",
      name: `isolate-${i}`,
    }),
);
const started = await Promise.all(workers.map((worker) => answer(worker)));
const problem = started.find((state) => state !== "listening");
if (problem) {
  console.error(
    problem === "in use"
      ? `Error: port ${port} is already in use (set PORT to another port)`
      : `Error: ${problem}`,
  );
  Deno.exit(1);
}
console.log(`Listening on http://localhost:${port}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) Deno.exit(130); // a second signal: at once
  stopping = true;
  const force = setTimeout(() => Deno.exit(1), SHUTDOWN_TIMEOUT_MS);
  await Promise.all(workers.map((worker) => {
    const stopped = answer(worker);
    worker.postMessage("stop");
    return stopped;
  }));
  clearTimeout(force);
  Deno.exit(0);
}
const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
for (const signal of signals) Deno.addSignalListener(signal, () => void stop());
