/**
 * SVG → PNG for link previews, with resvg compiled to WebAssembly (no native code, so it runs
 * wherever Deno runs, Deno Deploy included). Many previewers (Facebook, X, LinkedIn, iMessage)
 * refuse SVG images, hence the PNG. The wasm module and the Inter font are loaded once per
 * isolate, on the first preview asked for, so pages that never serve one pay nothing.
 */
import { createHash } from "node:crypto";
import { initWasm, Resvg } from "@resvg/resvg-wasm";

/** Inter in the weights the cards use; resvg reads TrueType, not the WOFF that web fonts ship. */
const FONT_FILES = [
  "@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf",
  "@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf",
  "@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf",
  "@expo-google-fonts/inter/800ExtraBold/Inter_800ExtraBold.ttf",
];

let ready: Promise<Uint8Array[]> | null = null;

/** A file of an npm package in the project's node_modules (the wasm and fonts ship there). */
function packageFile(path: string): Promise<Uint8Array> {
  return Deno.readFile(new URL(`../../node_modules/${path}`, import.meta.url));
}

/** Loads the wasm renderer (once per isolate: `initWasm` may be called only once) and the fonts. */
function load(): Promise<Uint8Array[]> {
  ready ??= (async () => {
    await initWasm(await packageFile("@resvg/resvg-wasm/index_bg.wasm"));
    return await Promise.all(FONT_FILES.map(packageFile));
  })().catch((err) => {
    ready = null; // a failed load (a missing file) is tried again by the next preview
    throw err;
  });
  return ready;
}

/**
 * The PNG of `svg` at its own size, with Inter as the only font (system fonts differ from machine
 * to machine; a character Inter lacks shows as a box).
 */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const fontBuffers = await load();
  const resvg = new Resvg(svg, {
    font: { fontBuffers, loadSystemFonts: false, defaultFontFamily: "Inter" },
  });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free(); // wasm memory is not garbage-collected
    }
  } finally {
    resvg.free();
  }
}

/** At most this many SVG→PNG renders run at once in an isolate. */
export const MAX_PARALLEL_RENDERS = 2;
/** Renders beyond those wait, this many at most; any more are refused (503 and Retry-After). */
export const MAX_WAITING_RENDERS = 8;
/** The PNGs kept per isolate, by the digest of their SVG (least recently used out). */
const KEPT_PNGS = 64;

/** Thrown when the renders of this isolate are all busy and the queue is full. */
export class RendersBusyError extends Error {
  constructor() {
    super("Preview renders are busy");
  }
}

/** One isolate's PNG renders (`Services.pngRenders`): the PNGs it keeps and its render slots. */
export class PngRenders {
  readonly #kept = new Map<string, Promise<Uint8Array>>();
  readonly #waiting: (() => void)[] = [];
  #running = 0;
  /** What the renders did, for tests and benches: how many ran, the most at once, how many refused. */
  readonly counts = { rendered: 0, peak: 0, refused: 0 };

  /**
   * The PNG of `svg`, rendered once per content: the SVG is the content version (a team's points,
   * a contest's entries), so the same card is never rendered twice while it is kept, whatever URL
   * or time slot asked for it. New renders run `MAX_PARALLEL_RENDERS` at once; with
   * `MAX_WAITING_RENDERS` already waiting, throws `RendersBusyError`.
   */
  async keptPng(svg: string): Promise<Uint8Array> {
    const kept = this.#kept;
    const key = sha256Hex(svg);
    const found = kept.get(key);
    if (found) {
      kept.delete(key);
      kept.set(key, found); // now the most recently used
      return await found;
    }
    const pending = this.#limited(() => svgToPng(svg));
    kept.set(key, pending);
    pending.catch(() => kept.delete(key));
    while (kept.size > KEPT_PNGS) kept.delete(kept.keys().next().value!);
    return await pending;
  }

  /** Runs `render` when one of the render slots is free; the freed slot passes to the next waiting. */
  async #limited<T>(render: () => Promise<T>): Promise<T> {
    if (this.#running < MAX_PARALLEL_RENDERS) {
      this.#running++;
    } else {
      if (this.#waiting.length >= MAX_WAITING_RENDERS) {
        this.counts.refused++;
        throw new RendersBusyError();
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve)); // the slot is handed over
    }
    this.counts.peak = Math.max(this.counts.peak, this.#running);
    try {
      // One macrotask first: requests already waiting (pages, the leaderboard) are answered
      // before this render holds the thread for its tens of milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.counts.rendered++;
      return await render();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/**
 * The SHA-256 of `text`, hex. Synchronous on purpose: a burst of requests reaches the render
 * limiter in the order it came, in one turn, so the limit holds exactly (an asynchronous digest
 * let a render finish, and free its slot, between two requests of one burst).
 */
function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
