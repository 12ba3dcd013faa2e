import type { FreshContext } from "$fresh/server.ts";
import { securityHeadersMiddleware } from "@/lib/http/security.ts";
import type { State } from "@/lib/services.ts";

/** A body cut off for taking too long (408): the connection is not worth keeping. */
async function closeAfterTimeout(_req: Request, ctx: FreshContext<State>): Promise<Response> {
  const res = await ctx.next();
  if (res.status === 408) res.headers.set("connection", "close");
  return res;
}

/** Every answer, pages and API alike: the security headers and the CSP, then the 408 rule. */
export const handler = [securityHeadersMiddleware(), closeAfterTimeout];
