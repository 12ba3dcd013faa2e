/**
 * Security headers and the Content-Security-Policy sent with every response.
 * Stripe.js needs js.stripe.com (script + frames), hooks.stripe.com (3-D Secure frames)
 * and api.stripe.com (XHR); the live leaderboard needs a WebSocket to /ws on the same host.
 */

const STRIPE_JS = "https://js.stripe.com";
const STRIPE_API = "https://api.stripe.com";
const STRIPE_HOOKS = "https://hooks.stripe.com";
const STRIPE_JS_SUBDOMAINS = "https://*.js.stripe.com";

/** The CSP for a response served at `url` (the WebSocket source is this host's /ws). */
export function contentSecurityPolicy(url: URL): string {
  const wsScheme = url.protocol === "https:" ? "wss:" : "ws:";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", STRIPE_JS, STRIPE_JS_SUBDOMAINS],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", `${wsScheme}//${url.host}`, STRIPE_API, STRIPE_JS],
    "frame-src": [STRIPE_JS, STRIPE_HOOKS, STRIPE_JS_SUBDOMAINS],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Every security header, keyed by name, for a response served at `url`. */
export function securityHeaders(url: URL): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(url),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "permissions-policy":
      `payment=(self "${STRIPE_JS}"), camera=(), microphone=(), geolocation=(), usb=()`,
    "cross-origin-opener-policy": "same-origin",
  };
}

/**
 * Returns `res` with the security headers set. Responses with immutable headers
 * (e.g. `Response.redirect`) are copied first; WebSocket upgrades pass through unchanged.
 */
export function withSecurityHeaders(res: Response, url: URL): Response {
  if (res.status === 101) return res;
  const headers = securityHeaders(url);
  try {
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
