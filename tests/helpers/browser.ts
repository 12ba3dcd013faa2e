/**
 * Launches headless Chromium for the browser tests through playwright-core, finding the
 * binary on its own: $CHROME_PATH, the usual system paths, then the optional npm package
 * `@sparticuz/chromium`.
 */
import { type Browser, chromium, type Page } from "playwright-core";

const SYSTEM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Chromium from the optional npm package `@sparticuz/chromium`, or null when not installed. */
async function sparticuzChromium(): Promise<string | null> {
  const name = "@sparticuz/chromium";
  try {
    const mod = await import(name);
    const path: string = await (mod.default ?? mod).executablePath();
    return isFile(path) ? path : null;
  } catch {
    return null;
  }
}

/** The Chromium executable to use; throws a clear error when there is none. */
export async function findChromium(): Promise<string> {
  const fromEnv = Deno.env.get("CHROME_PATH");
  if (fromEnv) {
    if (isFile(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH is set to "${fromEnv}", but no such file exists`);
  }
  const system = SYSTEM_PATHS.find(isFile);
  if (system) return system;
  const bundled = await sparticuzChromium();
  if (bundled) return bundled;
  throw new Error(
    "No Chromium found for the browser tests. Install it (Debian: apt-get install -y chromium) " +
      `or set CHROME_PATH. Looked in: ${
        SYSTEM_PATHS.join(", ")
      } and the npm package @sparticuz/chromium.`,
  );
}

/** A headless Chromium; close it with `await browser.close()`. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await findChromium();
  return await chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * Opens `url` and waits until the page's islands are hydrated (the boot module and every
 * island chunk loaded: no network activity left).
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "networkidle" });
}

/**
 * Saves a screenshot to /tmp/shots/<name>.png (or `$SHOTS_DIR/<name>.png`) for a person to look
 * at: the whole page, or only the viewport with `{ fullPage: false }` (better with a modal open).
 */
export async function screenshot(
  page: Page,
  name: string,
  opts: { fullPage?: boolean } = {},
): Promise<string> {
  const dir = Deno.env.get("SHOTS_DIR") || "/tmp/shots";
  await Deno.mkdir(dir, { recursive: true });
  const path = `${dir}/${name}.png`;
  await page.screenshot({ path, fullPage: opts.fullPage ?? true });
  return path;
}
