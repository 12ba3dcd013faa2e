import type { FreshContext } from "$fresh/server.ts";
import { clientIp, getAdminFromRequest } from "../../lib/auth/guard.ts";
import { services } from "../../lib/services.ts";

const LOGIN = "/admin/login";

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

/**
 * Admin pages need a session: without one they redirect to the login page, which shows
 * 'Authentication Required'. A logged-in admin opening the login page goes to the dashboard.
 * No admin page is kept by the browser's or a proxy's cache (`Cache-Control: no-store`).
 */
export async function handler(req: Request, ctx: FreshContext): Promise<Response> {
  if (ctx.destination !== "route") return ctx.next();
  const res = await guarded(req, ctx);
  res.headers.set("cache-control", "no-store");
  return res;
}

async function guarded(req: Request, ctx: FreshContext): Promise<Response> {
  const admin = await getAdminFromRequest(req, services().kv, clientIp(ctx));
  const path = ctx.url.pathname.replace(/\/$/, "");
  if (path === LOGIN) return admin ? redirect("/admin/dashboard") : ctx.next();
  if (!admin) return redirect(`${LOGIN}?auth=required`);
  ctx.state.admin = admin;
  return ctx.next();
}
