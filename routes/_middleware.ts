import type { FreshContext } from "$fresh/server.ts";
import { withSecurityHeaders } from "../lib/http/security.ts";

/** Adds the security headers and the CSP to every response, pages and API answers alike. */
export async function handler(_req: Request, ctx: FreshContext): Promise<Response> {
  const res = await ctx.next();
  return withSecurityHeaders(res, ctx.url);
}
