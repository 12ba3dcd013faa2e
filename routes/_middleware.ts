import type { FreshContext } from "$fresh/server.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { liveSocketSources, withSecurityHeaders } from "@/lib/http/security.ts";
import type { State } from "@/lib/services.ts";

/** Adds the security headers and the CSP to every response, pages and API answers alike. */
export async function handler(req: Request, ctx: FreshContext<State>): Promise<Response> {
  const https = isHttps(req); // read first: after a WebSocket upgrade the request is closed
  const res = await ctx.next();
  // A body cut off for taking too long (408): the connection is not worth keeping.
  if (res.status === 408) res.headers.set("connection", "close");
  const { publicUrl, port, liveWsPort } = ctx.state.services.config;
  const sources = liveSocketSources(publicUrl, port, liveWsPort);
  return withSecurityHeaders(res, https, sources, loadsStripe(req.url));
}

/**
 * Only the payment page loads Stripe.js; every other answer's policy leaves Stripe out. Read off
 * the raw URL: a request with a Host that is no host has no parsable URL, and still gets headers.
 */
function loadsStripe(url: string): boolean {
  return /^[a-z]+:\/\/[^/]*\/payment\//i.test(url);
}
