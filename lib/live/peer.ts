/**
 * One connected socket of the live hub: the competitions it follows and its message token bucket
 * (`burst` tokens, refilled at `perSecond`).
 */

/** What to do with a message, by the socket's token bucket. */
export type Admission = "accept" | "refuse" | "warn" | "expel";

export class Peer {
  readonly joined = new Set<number>();
  /** Closed by the hub for abuse; its remaining messages are ignored. */
  closing = false;
  #tokens: number;
  #refilledAt = performance.now();
  /** Messages refused since the bucket was last full; past a burst's worth the socket is closed. */
  #refused = 0;

  constructor(readonly burst: number, readonly perSecond: number) {
    this.#tokens = burst;
  }

  /**
   * Takes one token. Without one, the first refused message of a spell is "warn" (send an error),
   * a further burst's worth before the bucket is full again is "expel" (close with 1008).
   */
  admit(now = performance.now()): Admission {
    this.#tokens = Math.min(
      this.burst,
      this.#tokens + (now - this.#refilledAt) * this.perSecond / 1000,
    );
    this.#refilledAt = now;
    if (this.#tokens >= this.burst) this.#refused = 0;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return "accept";
    }
    this.#refused++;
    if (this.#refused > this.burst) return "expel";
    return this.#refused === 1 ? "warn" : "refuse";
  }
}
