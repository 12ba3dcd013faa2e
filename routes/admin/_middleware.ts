import type { FreshContext } from "$fresh/server.ts";
import { clientIp, getAdminFromRequest } from "@/lib/auth/guard.ts";
import type { AdminState } from "@/lib/services.ts";

const LOGIN = "/admin/login";
const OAUTH = "/admin/oauth/";
const TWO_FACTOR = "/admin/2fa";

function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}

/**
 * Admin pages need a session: without one they redirect to the login page, which shows
 * 'Authentication Required'. A logged-in admin opening the login page goes to the dashboard; one
 * who must still set up a second factor (ADMIN_REQUIRE_2FA) sees only the set-up page.
 * No admin page is kept by the browser's or a proxy's cache (`Cache-Control: no-store`).
 */
export async function handler(req: Request, ctx: FreshContext<AdminState>): Promise<Response> {
  if (ctx.destination !== "route") return ctx.next();
  const res = await guarded(req, ctx); // throttled admin headers: the 429 page (routes/_500.tsx)
  res.headers.set("cache-control", "no-store");
  return res;
}

async function guarded(req: Request, ctx: FreshContext<AdminState>): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/$/, "");
  if (path.startsWith(OAUTH)) return ctx.next(); // the sign-in through the identity provider
  const { kv, config, adminChecks } = ctx.state.services;
  const require2fa = config.adminRequire2fa;
  const admin = await getAdminFromRequest(req, kv, clientIp(ctx), {
    require2fa,
    checks: adminChecks,
  });
  if (path === LOGIN) return admin ? redirect("/admin/dashboard") : ctx.next();
  if (!admin) return redirect(`${LOGIN}?auth=required`);
  if (admin.mustEnrolTotp && path !== TWO_FACTOR) return redirect(TWO_FACTOR);
  ctx.state.admin = admin;
  return ctx.next();
}
