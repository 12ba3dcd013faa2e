import type { FreshContext } from "$fresh/server.ts";
import { clientIp, requireAdmin } from "../../../lib/auth/guard.ts";
import { services } from "../../../lib/services.ts";

const PUBLIC_PATHS = new Set(["/api/admin/login"]);

/** Every /api/admin route but login needs an admin (session cookie or admin headers): 401 otherwise. */
export async function handler(req: Request, ctx: FreshContext): Promise<Response> {
  if (PUBLIC_PATHS.has(ctx.url.pathname)) return ctx.next();
  ctx.state.admin = await requireAdmin(req, services().kv, clientIp(ctx));
  return ctx.next();
}
