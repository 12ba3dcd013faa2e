import type { FreshContext } from "$fresh/server.ts";
import { isHttps } from "../lib/auth/sessions.ts";
import { withSecurityHeaders } from "../lib/http/security.ts";

/** Adds the security headers and the CSP to every response, pages and API answers alike. */
export async function handler(req: Request, ctx: FreshContext): Promise<Response> {
  const https = isHttps(req); // read first: after a WebSocket upgrade the request is closed
  const res = await ctx.next();
  return withSecurityHeaders(res, ctx.url, https);
}
