/**
 * SVG → PNG for link previews, with resvg compiled to WebAssembly (no native code, so it runs
 * wherever Deno runs, Deno Deploy included). Many previewers (Facebook, X, LinkedIn, iMessage)
 * refuse SVG images, hence the PNG. The wasm module and the Inter font are loaded once per
 * isolate, on the first preview asked for, so pages that never serve one pay nothing.
 */
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
