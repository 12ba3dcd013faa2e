/**
 * Which isolate answered: `x-isolate` names this one among the `deno serve --parallel` isolates
 * of one server (scripts/start.ts) and `x-isolates` says how many it runs, so a launcher can
 * wait until every isolate serves before sending load (the first ready one would otherwise
 * keep every early keep-alive connection).
 */
const ISOLATE = crypto.randomUUID().slice(0, 8);
const ISOLATES = Deno.env.get("SERVE_ISOLATES") ?? "1";

/** The probe answers' headers: never cached, and naming the isolate. */
export function probeHeaders(): Record<string, string> {
  return { "cache-control": "no-store", "x-isolate": ISOLATE, "x-isolates": ISOLATES };
}
