/**
 * Loads an entry module (argument 1, e.g. main.ts) as Deno Deploy would, with `Deno.cron`,
 * `Deno.serve` and `node:http`'s `listen` (main.ts serves through it) recording what is called
 * and in which order (the server still listens), for
 * tests/e2e/deploy_cron_test.ts. With `--sweep`, a buyer then pays and never comes back, and the
 * recorded "payment sweep" job is run by hand, as Deploy's scheduler would. Prints one line,
 * `RESULT {...}`, and stops the app.
 */
import { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { withBusyRetry } from "@/lib/store/busy_retry.ts";
import { getEntryByPayment } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { SWEEP_GRACE_MS } from "@/lib/payments/sweep.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";

type Handler = () => Promise<void> | void;
type Event =
  | { call: "cron"; name: string; schedule: string; backoffSchedule: number[] | null }
  | { call: "serve" };

const events: Event[] = [];
const handlers = new Map<string, Handler>();
let port = 0;

function replace(name: "cron" | "serve", value: unknown): void {
  Object.defineProperty(Deno, name, { configurable: true, writable: true, value });
}

const realServe = Deno.serve;
replace("cron", (name: string, schedule: string, ...rest: unknown[]) => {
  const handler = rest.at(-1) as Handler;
  const options = rest.length > 1 ? rest[0] as { backoffSchedule?: number[] } : {};
  events.push({ call: "cron", name, schedule, backoffSchedule: options.backoffSchedule ?? null });
  handlers.set(name, handler);
  return Promise.resolve();
});
replace("serve", (...args: Parameters<typeof Deno.serve>) => {
  events.push({ call: "serve" });
  const server = realServe(...args);
  port = server.addr.port;
  return server;
});

const realListen = Server.prototype.listen;
Server.prototype.listen = function (this: Server, ...args: unknown[]) {
  events.push({ call: "serve" });
  this.once("listening", () => port = (this.address() as AddressInfo).port);
  return (realListen as (...a: unknown[]) => Server).apply(this, args);
} as typeof Server.prototype.listen;

const entry = await import(new URL(Deno.args[0], `file://${Deno.cwd()}/`).href);

async function post(path: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A paid checkout whose browser never came back, then one run of the "payment sweep" job. */
async function sweepAPaidCheckout(): Promise<string | null> {
  const opened = await Deno.openKv(Deno.env.get("DENO_KV_PATH"));
  const kv = withBusyRetry(opened); // the app writes to the same file
  try {
    const c = await makeCompetition(kv);
    const buyer = { email: "cron@example.com", teamName: "Cron Club", playerIds: validPicks(c) };
    const { paymentIntentId } = await post("/api/create-payment-intent", {
      competitionId: c.id,
      ...buyer,
    }) as { paymentIntentId: string };
    await post("/api/test-payments/confirm", { paymentIntentId, cardNumber: SUCCESS_CARD });
    const checkout = await kv.get<{ createdAt: string }>(keys.checkout(paymentIntentId));
    const createdAt = new Date(Date.now() - SWEEP_GRACE_MS - 1000).toISOString();
    await kv.set(checkout.key, { ...checkout.value!, createdAt });
    if (await getEntryByPayment(kv, paymentIntentId)) throw new Error("an entry before the job");
    await handlers.get("payment sweep")!();
    return (await getEntryByPayment(kv, paymentIntentId))?.teamName ?? null;
  } finally {
    opened.close();
  }
}

const swept = Deno.args.includes("--sweep") ? await sweepAPaidCheckout() : null;
console.log(`RESULT ${JSON.stringify({ events, swept })}`);
await entry.app.shutdown();
Deno.exit(0);
