import type { FreshContext } from "$fresh/server.ts";
import { errorResponse, json } from "../../lib/http/errors.ts";

/** Every /api answer is JSON: thrown errors become `{message, issues?}`, unknown paths a 404. */
export async function handler(_req: Request, ctx: FreshContext): Promise<Response> {
  if (ctx.destination === "notFound") return json({ message: "Not found" }, { status: 404 });
  try {
    return await ctx.next();
  } catch (err) {
    return errorResponse(err);
  }
}
