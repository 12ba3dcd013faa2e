/**
 * Security headers and the Content-Security-Policy sent with every response, set in one place:
 * the `securityHeadersMiddleware` the root `_middleware` runs around every answer.
 * Stripe.js needs js.stripe.com (script + frames), hooks.stripe.com (3-D Secure frames)
 * and api.stripe.com (XHR), on the payment page only (`stripe`: the other pages never load it, and
 * a policy that allows less is also a smaller header); the live leaderboard needs a WebSocket to
 * /ws on this site.
 */

import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "$fresh/server.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { PREPAINT_SCRIPTS } from "@/lib/client/prepaint.ts";
import type { State } from "@/lib/services.ts";

const STRIPE_JS = "https://js.stripe.com";
const STRIPE_API = "https://api.stripe.com";
const STRIPE_HOOKS = "https://hooks.stripe.com";
const STRIPE_JS_SUBDOMAINS = "https://*.js.stripe.com";

/** The inline prepaint scripts as CSP sources (their SHA-256 hashes), with their pages. */
const PREPAINT_HASHES = PREPAINT_SCRIPTS.map(({ script, pages }) => ({
  source: `'sha256-${createHash("sha256").update(script).digest("base64")}'`,
  pages,
}));

/** The hashes of the prepaint scripts the page at `path` inlines; every one when `path` is null. */
function prepaintSources(path: string | null): string[] {
  return PREPAINT_HASHES.filter((h) => path === null || path.startsWith(h.pages))
    .map((h) => h.source);
}

/**
 * The addresses the browser may open the live socket on: PUBLIC_URL's host when set, else the
 * loopback names of the port the server listens on; with `liveWsPort` (LIVE_WS_PORT) that port
 * of the same host. Never the request's Host header, which anyone can set (and a cache could then
 * serve that policy to everyone).
 */
export function liveSocketSources(
  publicUrl: string | null,
  port: number,
  liveWsPort: number | null = null,
): string[] {
  if (publicUrl) {
    const url = new URL(publicUrl);
    const scheme = url.protocol === "https:" ? "wss:" : "ws:";
    return [`${scheme}//${liveWsPort ? `${url.hostname}:${liveWsPort}` : url.host}`];
  }
  const socketPort = liveWsPort ?? port;
  const suffix = socketPort ? `:${socketPort}` : "";
  return [`ws://localhost${suffix}`, `ws://127.0.0.1${suffix}`];
}

/**
 * The CSP; `wsSources` (see `liveSocketSources`) are where the leaderboard's /ws may be,
 * `stripe` lets Stripe.js load and run (the payment page), and `path` (the page's) allows the
 * inline prepaint scripts of that page only (null: all of them).
 */
export function contentSecurityPolicy(
  wsSources: string[],
  stripe = true,
  path: string | null = null,
): string {
  const [first, ...more] = wsSources;
  const stripeScripts = stripe ? [STRIPE_JS, STRIPE_JS_SUBDOMAINS] : [];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...prepaintSources(path), ...stripeScripts],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": [
      "'self'",
      ...(first ? [first] : []),
      ...(stripe ? [STRIPE_API, STRIPE_JS] : []),
      ...more,
    ],
    "frame-src": stripe ? [STRIPE_JS, STRIPE_HOOKS, STRIPE_JS_SUBDOMAINS] : ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Two years: what the HSTS preload list asks for. */
const HSTS = "max-age=63072000; includeSubDomains";

/**
 * Every security header, keyed by name; `https` (the request came over TLS, maybe through a
 * proxy) adds Strict-Transport-Security; `path`: see `contentSecurityPolicy`.
 */
export function securityHeaders(
  https: boolean,
  wsSources: string[],
  stripe = true,
  path: string | null = null,
): Record<string, string> {
  const payment = stripe ? `(self "${STRIPE_JS}")` : "()";
  const headers: Record<string, string> = {
    "content-security-policy": contentSecurityPolicy(wsSources, stripe, path),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "permissions-policy": `payment=${payment}, camera=(), microphone=(), geolocation=(), usb=()`,
    "cross-origin-opener-policy": "same-origin",
  };
  if (https) headers["strict-transport-security"] = HSTS;
  return headers;
}

/**
 * What a bundle script needs: the document headers (CSP, framing, permissions, referrer, opener)
 * do nothing on a script and cost ~700 bytes on each of a page's 20-odd chunks.
 */
const SCRIPT_HEADERS = { "x-content-type-options": "nosniff" };

/** A JavaScript answer (island chunks above all): a script, never a document. */
function isScript(res: Response): boolean {
  return /^text\/javascript\b/.test(res.headers.get("content-type") ?? "");
}

/**
 * Returns `res` with the security headers set (only nosniff on scripts). Responses with immutable
 * headers (e.g. `Response.redirect`) are copied first; WebSocket upgrades pass through unchanged.
 */
export function withSecurityHeaders(
  res: Response,
  https: boolean,
  wsSources: string[],
  stripe = true,
  path: string | null = null,
): Response {
  if (res.status === 101) return res;
  const headers = isScript(res) ? SCRIPT_HEADERS : securityHeaders(https, wsSources, stripe, path);
  try {
    setSecurityHeaders(res.headers, headers);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    setSecurityHeaders(copy.headers, headers);
    return copy;
  }
}

/** Sets every header; a page's own referrer policy stays (a private link sends no referrer). */
function setSecurityHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name === "referrer-policy" && target.has(name)) continue;
    target.set(name, value);
  }
}

/**
 * The middleware that sets the security headers and the CSP on every answer below it (pages, API
 * answers, static and framework files, error pages), with the live socket's addresses from the
 * configuration and Stripe allowed on the payment page only.
 * @example export const handler = [securityHeadersMiddleware(), …]; // routes/_middleware.ts
 */
export function securityHeadersMiddleware(): MiddlewareHandler<State> {
  return async function securityHeaders(req, ctx) {
    const https = isHttps(req); // read first: after a WebSocket upgrade the request is closed
    const res = await ctx.next();
    const { publicUrl, port, liveWsPort } = ctx.state.services.config;
    const sources = liveSocketSources(publicUrl, port, liveWsPort);
    return withSecurityHeaders(res, https, sources, loadsStripe(req.url), pathOf(req.url));
  };
}

/**
 * Only the payment page loads Stripe.js; every other answer's policy leaves Stripe out. Read off
 * the raw URL: a request with a Host that is no host has no parsable URL, and still gets headers.
 */
function loadsStripe(url: string): boolean {
  return /^[a-z]+:\/\/[^/]*\/payment\//i.test(url);
}

/** The path of a raw URL ("/" when it has none), read as `loadsStripe` reads it. */
function pathOf(url: string): string {
  return /^[a-z]+:\/\/[^/]*(\/[^?#]*)?/i.exec(url)?.[1] ?? "/";
}

/**
 * True when a browser sent the request from another site or origin: Sec-Fetch-Site says so, or
 * (browsers without Fetch Metadata) the Origin header names another host than the request's.
 * Requests without either header (API clients, curl) are not cross-site.
 */
export function isCrossOriginRequest(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "cross-site" || site === "same-site";
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  try {
    return new URL(origin).host !== new URL(req.url).host;
  } catch {
    return true; // "null" (sandboxed frames, privacy redirects) or garbage
  }
}
