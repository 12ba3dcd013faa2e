/**
 * Renders the app icons of the web app manifest (static/icons/*.png) from static/favicon.svg:
 * 192 and 512 px as they are, and a 512 px maskable icon whose ball sits inside the safe zone
 * (the middle 80 %) of a full-bleed green square, so a launcher's round or squircle mask never
 * cuts it. Run after changing the logo: `deno run -A scripts/make_icons.ts`.
 */
import { svgToPng } from "@/lib/og/png.ts";

const STATIC = new URL("../static/", import.meta.url);

/** The icons: file name → SVG at that size. */
export async function iconSvgs(): Promise<Record<string, string>> {
  const logo = await Deno.readTextFile(new URL("favicon.svg", STATIC));
  const inner = logo.replace(/^<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
  const sized = (px: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 64 64">${inner}</svg>`;
  // Maskable: no rounded corners, the logo scaled to 70 % around the centre.
  const maskable = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" ` +
    `viewBox="0 0 64 64"><rect width="64" height="64" fill="#16a34a"/>` +
    `<g transform="translate(9.6 9.6) scale(0.7)">${inner}</g></svg>`;
  return { "icon-192.png": sized(192), "icon-512.png": sized(512), "maskable-512.png": maskable };
}

if (import.meta.main) {
  for (const [name, svg] of Object.entries(await iconSvgs())) {
    const png = await svgToPng(svg);
    await Deno.writeFile(new URL(`icons/${name}`, STATIC), png);
    console.log(`static/icons/${name}: ${png.length} bytes`);
  }
}
