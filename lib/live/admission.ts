/**
 * Who may open a live socket (routes/ws.ts), per hub: at most `perAddress` open sockets per
 * client address, and at most `upgradesPerMinute` handshakes per address (each socket the hub
 * closes for abuse costs a new handshake, so this also bounds how often one address can make the
 * server buffer a message). The hub's own global cap (`maxSockets`) stays the last word.
 *
 * Deno 2.9 buffers each WebSocket message whole (up to 64 MiB, fixed inside Deno) before the app
 * sees it, so an address's open sockets bound how much one address can make the server hold.
 */

export interface AdmissionOptions {
  /** Most sockets one address may hold open at once. */
  perAddress?: number;
  /** Most handshakes one address may make per minute. */
  upgradesPerMinute?: number;
}

/** Most sockets per address (a household or office of live viewers stays far below). */
export const MAX_SOCKETS_PER_ADDRESS = 8;
export const MAX_UPGRADES_PER_MINUTE = 30;

export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; reason: "sockets" | "upgrades"; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

/** The admission state of one hub. */
export class SocketAdmission {
  readonly #perAddress: number;
  readonly #perMinute: number;
  readonly #open = new Map<string, number>();
  readonly #upgrades = new Map<string, Bucket>();

  constructor(options: AdmissionOptions = {}) {
    this.#perAddress = options.perAddress ?? MAX_SOCKETS_PER_ADDRESS;
    this.#perMinute = options.upgradesPerMinute ?? MAX_UPGRADES_PER_MINUTE;
  }

  /** Open sockets of `address`. */
  openSockets(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /**
   * Admits one socket of `address` or says why not. An admitted socket must call `release`
   * once when it closes (or when the upgrade did not happen).
   */
  admit(address: string, now = performance.now()): Admission {
    const open = this.openSockets(address);
    if (open >= this.#perAddress) return { ok: false, reason: "sockets", retryAfterSeconds: 30 };
    const bucket = this.#refill(address, now);
    if (bucket.tokens < 1) {
      const wait = (1 - bucket.tokens) * 60 / this.#perMinute;
      return { ok: false, reason: "upgrades", retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    }
    bucket.tokens -= 1;
    this.#open.set(address, open + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        const left = this.openSockets(address) - 1;
        if (left > 0) this.#open.set(address, left);
        else this.#open.delete(address);
      },
    };
  }

  #refill(address: string, now: number): Bucket {
    if (this.#upgrades.size > PRUNE_AT) this.#prune(now);
    const bucket = this.#upgrades.get(address) ?? { tokens: this.#perMinute, at: now };
    bucket.tokens = Math.min(
      this.#perMinute,
      bucket.tokens + (now - bucket.at) * this.#perMinute / 60_000,
    );
    bucket.at = now;
    this.#upgrades.set(address, bucket);
    return bucket;
  }

  /** Forgets the buckets that have refilled (their addresses are as new). */
  #prune(now: number): void {
    for (const [address, bucket] of this.#upgrades) {
      if (bucket.tokens + (now - bucket.at) * this.#perMinute / 60_000 >= this.#perMinute) {
        this.#upgrades.delete(address);
      }
    }
  }
}

/** Handshake buckets kept before the full ones are pruned. */
const PRUNE_AT = 10_000;
