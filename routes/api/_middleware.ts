import type { FreshContext } from "$fresh/server.ts";
import { errorResponse, json } from "../../lib/http/errors.ts";

/**
 * Every /api answer is JSON: thrown errors become `{message, issues?}`, unknown paths a 404 and
 * a method the route does not answer a 405 (with its Allow header).
 */
export async function handler(_req: Request, ctx: FreshContext): Promise<Response> {
  if (ctx.destination === "notFound") return json({ message: "Not found" }, { status: 404 });
  try {
    const res = await ctx.next();
    if (res.status !== 405 || res.headers.get("content-type")?.includes("json")) return res;
    await res.body?.cancel();
    const headers = { allow: res.headers.get("allow") ?? "" };
    return json({ message: "Method not allowed" }, { status: 405, headers });
  } catch (err) {
    return errorResponse(err);
  }
}
