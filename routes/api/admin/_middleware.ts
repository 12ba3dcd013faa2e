import type { FreshContext } from "$fresh/server.ts";
import { clientIp, requireAdmin } from "../../../lib/auth/guard.ts";
import { errorResponse, ForbiddenError } from "../../../lib/http/errors.ts";
import { isCrossOriginRequest } from "../../../lib/http/security.ts";
import { services } from "../../../lib/services.ts";

const PUBLIC_PATHS = new Set(["/api/admin/login"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every /api/admin route but login needs an admin (session cookie or admin headers): 401
 * otherwise. Writes sent by a browser from another site are refused (403) before anything else,
 * so the session cookie cannot be ridden by a cross-site form or fetch. Answers are never cached.
 */
export async function handler(req: Request, ctx: FreshContext): Promise<Response> {
  let res: Response;
  try {
    res = await guarded(req, ctx);
  } catch (err) {
    res = errorResponse(err);
  }
  res.headers.set("cache-control", "no-store");
  return res;
}

async function guarded(req: Request, ctx: FreshContext): Promise<Response> {
  if (!SAFE_METHODS.has(req.method) && isCrossOriginRequest(req)) {
    throw new ForbiddenError("Cross-site requests are not allowed");
  }
  if (PUBLIC_PATHS.has(ctx.url.pathname)) return await ctx.next();
  ctx.state.admin = await requireAdmin(req, services().kv, clientIp(ctx));
  return await ctx.next();
}
