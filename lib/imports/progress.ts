/** The NDJSON progress answer of a long import apply. */

const encoder = new TextEncoder();

/**
 * Runs `task`, answering with an NDJSON stream: a `{type: "progress", job}` line per report, then
 * `{type: "done", job}` (or `{type: "error", message}`). A task that fails before its first report
 * (a refused file: nothing written) throws instead, so the route answers with its status.
 */
export async function progressStream<J>(
  task: (progress: (job: J) => void) => Promise<J>,
): Promise<Response> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const send = (line: unknown) =>
    writer.write(encoder.encode(JSON.stringify(line) + "\n")).catch(() => {
      // The client left: the task still finishes.
    });
  let started!: () => void;
  const firstReport = new Promise<void>((resolve) => started = resolve);
  const run = task((job) => {
    started();
    void send({ type: "progress", job });
  });
  await Promise.race([firstReport, run]);
  run.then(
    (job) => send({ type: "done", job }),
    (err) => send({ type: "error", message: err instanceof Error ? err.message : String(err) }),
  ).finally(() => writer.close().catch(() => undefined));
  return new Response(readable, {
    headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
  });
}
