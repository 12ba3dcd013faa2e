/**
 * The app's traces and metrics through Deno's built-in OpenTelemetry (`OTEL_DENO=true`; the
 * `otel` unstable flag is on in deno.json). Without it every call here is a cheap no-op, so code
 * records unconditionally. Deno itself makes the span of each served request and each `fetch`;
 * this module adds what only the app knows: the route of a request, KV round trips and
 * conflicts, group-commit sizes, sweep results and the sockets of each isolate.
 */

/**
 * Whether traces and metrics are exported (Deno reads the same variable). Only then: Deno 2.5
 * (Deno Deploy's runtime) panics when a span starts while its OpenTelemetry is off, and Deploy's
 * documentation does not say that it sets `OTEL_DENO` for the app (no `OTEL_` variable can be
 * set there), so being on Deploy does not turn this on.
 */
export const TELEMETRY_ENABLED = Deno.env.get("OTEL_DENO") === "true";

/** The parts of an OpenTelemetry span this app uses. */
export interface Span {
  setAttribute(name: string, value: string | number | boolean): void;
  updateName(name: string): void;
  recordException(err: unknown): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}

type Attributes = Record<string, string | number | boolean>;

interface Counter {
  add(value: number, attributes?: Attributes): void;
}

interface Histogram {
  record(value: number, attributes?: Attributes): void;
}

const NO_SPAN: Span = {
  setAttribute() {},
  updateName() {},
  recordException() {},
  setStatus() {},
  end() {},
};
const NO_COUNTER: Counter = { add() {} };
const NO_HISTOGRAM: Histogram = { record() {} };
/** OpenTelemetry's status code of a failed span. */
const STATUS_ERROR = 2;

function otel<T>(make: () => T, fallback: T): T {
  if (!TELEMETRY_ENABLED) return fallback;
  try {
    return make();
  } catch {
    return fallback; // Deno without its OpenTelemetry set up (the `otel` unstable flag off)
  }
}

const tracer = otel(() => Deno.telemetry.tracerProvider.getTracer("fantasy-contests"), null);
const meter = otel(() => Deno.telemetry.meterProvider.getMeter("fantasy-contests"), null);

function counter(name: string, description: string): Counter {
  return otel(() => meter?.createCounter(name, { description }) ?? NO_COUNTER, NO_COUNTER);
}

function histogram(name: string, description: string, unit = ""): Histogram {
  return otel(
    () => meter?.createHistogram(name, { description, unit }) ?? NO_HISTOGRAM,
    NO_HISTOGRAM,
  );
}

const kvOps = counter("kv.operations", "KV round trips by operation");
const kvConflicts = counter("kv.commit.conflicts", "Atomic commits refused by a failed check");
const kvDuration = histogram("kv.duration", "Time of one KV round trip", "ms");
const groupCommitSize = histogram("kv.group_commit.size", "Entries written by one group commit");
const sweepResults = counter("payments.sweep.results", "What payment sweeps did, by result");

/** Starts a span under the current one (the served request's); a no-op without telemetry. */
export function startSpan(name: string, attributes: Attributes = {}): Span {
  if (!tracer) return NO_SPAN;
  try {
    return tracer.startSpan(name, { attributes }) as Span;
  } catch {
    return NO_SPAN;
  }
}

/** Ends `span`, failed with `err` when one is given. */
export function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined) {
    span.recordException(err);
    span.setStatus({ code: STATUS_ERROR, message: err instanceof Error ? err.message : "" });
  }
  span.end();
}

/** Runs `work` inside a span named `name`, ending it (with the error, if any) afterwards. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = startSpan(name, attributes);
  try {
    const result = await work(span);
    endSpan(span);
    return result;
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
}

/** One KV round trip: `op` is get, getMany, list, commit, set, delete or watch. */
export function recordKvOperation(op: string, ms: number): void {
  kvOps.add(1, { op });
  kvDuration.record(ms, { op });
}

/** An atomic commit refused because one of its checks failed. */
export function recordKvConflict(): void {
  kvConflicts.add(1);
}

/** The number of entries one group commit wrote (lib/store/group_commit.ts). */
export function recordGroupCommit(size: number): void {
  groupCommitSize.record(size);
}

/** The counts of one payment sweep (finalised, refunded, expired, failed). */
export function recordSweep(report: Record<string, number>): void {
  for (const [result, count] of Object.entries(report)) {
    if (count > 0) sweepResults.add(count, { result });
  }
}

/** Reports `count()` as this isolate's live sockets on every metrics export. */
export function observeSockets(count: () => number): void {
  if (!meter) return;
  try {
    const gauge = meter.createObservableGauge("live.sockets", {
      description: "WebSockets connected to this isolate",
    });
    // deno-lint-ignore no-explicit-any
    gauge.addCallback((result: any) => result.observe(count()));
  } catch {
    // metrics unavailable: nothing to report to
  }
}
