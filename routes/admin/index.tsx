import type { Handlers } from "$fresh/server.ts";

export const handler: Handlers = {
  /** /admin opens the dashboard (the middleware already sent visitors without a session away). */
  GET() {
    return new Response(null, { status: 303, headers: { location: "/admin/dashboard" } });
  },
};
