import type { FreshContext } from "$fresh/server.ts";
import { clientIp, requireAdmin } from "@/lib/auth/guard.ts";
import { clearSessionCookie } from "@/lib/auth/sessions.ts";
import { errorResponse, ForbiddenError } from "@/lib/http/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import { withAdminAudit } from "@/lib/http/admin_audit.ts";
import type { AdminState } from "@/lib/services.ts";

const PUBLIC_PATHS = new Set(["/api/admin/login"]);
/** What a session that must still set up its second factor may call (ADMIN_REQUIRE_2FA). */
const ENROLMENT_PATHS = new Set([
  "/api/admin/2fa/setup",
  "/api/admin/2fa/confirm",
  "/api/admin/session",
  "/api/admin/logout",
]);
const LOGOUT = "/api/admin/logout";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every /api/admin route but login needs an admin (session cookie or admin headers): 401
 * otherwise. Writes sent by a browser from another site are refused (403) before anything else,
 * so the session cookie cannot be ridden by a cross-site form or fetch. Every successful write is
 * appended to the activity log (withAdminAudit: who, what, before → after, reason). Answers are never cached
 * (thrown errors are answered by `apiErrorsPlugin`, whose answers are never cached either).
 */
export async function handler(req: Request, ctx: FreshContext<AdminState>): Promise<Response> {
  let res: Response;
  try {
    res = await guarded(req, ctx);
  } catch (err) {
    if (ctx.url.pathname !== LOGOUT) throw err;
    // A logout whose session is already gone still clears the browser's cookie.
    res = errorResponse(err);
    res.headers.set("set-cookie", clearSessionCookie(req));
  }
  res.headers.set("cache-control", "no-store");
  return res;
}

async function guarded(req: Request, ctx: FreshContext<AdminState>): Promise<Response> {
  if (!SAFE_METHODS.has(req.method) && isCrossOriginRequest(req)) {
    throw new ForbiddenError("Cross-site requests are not allowed");
  }
  if (PUBLIC_PATHS.has(ctx.url.pathname)) return await ctx.next();
  const { kv, config, adminChecks } = ctx.state.services;
  const require2fa = config.adminRequire2fa;
  const admin = await requireAdmin(req, kv, clientIp(ctx), { require2fa, checks: adminChecks });
  if (admin.mustEnrolTotp && !ENROLMENT_PATHS.has(ctx.url.pathname)) {
    throw new ForbiddenError("Set up two-factor authentication first");
  }
  ctx.state.admin = admin;
  return await withAdminAudit(kv, req, admin.username, (stamp) => {
    ctx.state.audit = stamp;
    return ctx.next();
  });
}
