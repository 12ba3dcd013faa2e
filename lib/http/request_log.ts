/**
 * What each request did, for the operator: one JSON log line per request (request id, method,
 * route, status, duration) and, with OpenTelemetry on, a span named by the route
 * (`GET /leaderboard/:id`) under the span Deno makes for the served request. The route is
 * known only once the router matched, so `routeRecorder` (a root middleware) notes it for
 * `withRequestLog`, the wrapper around the whole handler.
 */
import type { Plugin } from "$fresh/server.ts";
import { startSpan } from "@/lib/telemetry.ts";

/** The header carrying a request's id: kept from the client (a proxy's), else made here. */
export const REQUEST_ID_HEADER = "x-request-id";

const routes = new WeakMap<Request, string>();

/** The root middleware that notes the matched route of each request (its URL pattern). */
export const routeRecorder: Plugin = {
  name: "route-recorder",
  middlewares: [{
    path: "/",
    middleware: {
      handler: (req, ctx) => {
        routes.set(req, ctx.route ?? ctx.destination);
        return ctx.next();
      },
    },
  }],
};

/** The fields of one request's log line. */
export interface RequestLogLine {
  level: "info" | "warn" | "error";
  msg: "request";
  requestId: string;
  method: string;
  route: string;
  path: string;
  status: number;
  ms: number;
}

type Handler = (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;

function requestId(req: Request): string {
  const given = req.headers.get(REQUEST_ID_HEADER);
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

/**
 * `handler` with a request id on its answers (`x-request-id`), a route-named span and, when
 * `log` is true, one JSON line per request on standard output. A file cached for good
 * (`immutable`: the build's scripts) carries no id: nobody traces it, and a page loads several.
 */
export function withRequestLog(handler: Handler, log: boolean): Handler {
  return async (req, info) => {
    const started = performance.now();
    const id = requestId(req);
    const span = startSpan(req.method, { "http.request.method": req.method, "request.id": id });
    let status = 500;
    try {
      const res = await handler(req, info);
      status = res.status;
      try {
        if (!res.headers.get("cache-control")?.includes("immutable")) {
          res.headers.set(REQUEST_ID_HEADER, id);
        }
      } catch {
        // immutable headers (a Response.redirect): the log line still has the id
      }
      return res;
    } finally {
      const route = routes.get(req) ?? "unmatched";
      span.updateName(`${req.method} ${route}`);
      span.setAttribute("http.route", route);
      span.setAttribute("http.response.status_code", status);
      span.end();
      if (log) {
        const line: RequestLogLine = {
          level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
          msg: "request",
          requestId: id,
          method: req.method,
          route,
          path: new URL(req.url).pathname,
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        };
        console.log(JSON.stringify(line));
      }
    }
  };
}
