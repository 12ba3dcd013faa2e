import assert from "node:assert/strict";
import {
  FIRST_RETRY_MS,
  MAX_RETRY_MS,
  reconnectDelay,
  RESTART_SPREAD_MS,
  SERVICE_RESTART,
} from "@/lib/client/live/reconnect.ts";

/** The delays for `draws` evenly spread random numbers in [0, 1). */
function delays(attempt: number, code: number, draws = 1000): number[] {
  return Array.from({ length: draws }, (_, i) => reconnectDelay(attempt, code, i / draws));
}

Deno.test("[live reconnect] after the restart hint, pages spread their first try over the whole window", () => {
  const all = delays(0, SERVICE_RESTART);
  assert.equal(Math.min(...all), 0);
  assert.ok(Math.max(...all) < RESTART_SPREAD_MS);
  assert.ok(Math.max(...all) >= RESTART_SPREAD_MS * 0.99);
  // Every tenth of the window gets a tenth of the pages: no herd at any moment.
  const buckets = new Array(10).fill(0);
  for (const delay of all) buckets[Math.floor(delay / (RESTART_SPREAD_MS / 10))]++;
  assert.deepEqual(buckets, new Array(10).fill(100));
});

Deno.test("[live reconnect] an unannounced close backs off exponentially, half of each step random", () => {
  for (const code of [1006, 1001, 1013, 1008]) {
    for (let attempt = 0; attempt < 8; attempt++) {
      const step = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
      const all = delays(attempt, code);
      assert.equal(Math.min(...all), step / 2, `code ${code}, attempt ${attempt}`);
      assert.ok(Math.max(...all) < step, `code ${code}, attempt ${attempt}`);
      assert.ok(Math.max(...all) >= step * 0.99, `code ${code}, attempt ${attempt}`);
    }
  }
  // Never a retry at once, never more than the cap, even after very many failures.
  assert.equal(reconnectDelay(0, 1006, 0), FIRST_RETRY_MS / 2);
  assert.equal(reconnectDelay(1000, 1006, 0.999_999), MAX_RETRY_MS - 1);
});

Deno.test("[live reconnect] a restart hint followed by failed tries backs off like any failure", () => {
  assert.equal(reconnectDelay(1, SERVICE_RESTART, 0), FIRST_RETRY_MS);
  assert.equal(reconnectDelay(2, SERVICE_RESTART, 0.5), 3000);
});

Deno.test("[live reconnect] the default jitter comes from Math.random", () => {
  const seen = new Set(Array.from({ length: 50 }, () => reconnectDelay(0, SERVICE_RESTART)));
  assert.ok(seen.size > 25, `${seen.size} distinct delays of 50`);
});
