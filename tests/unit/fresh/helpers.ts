/** Shared helpers for the framework tests: the fixture app's handler and request shortcuts. */
import { createHandler, type FreshConfig, type RequestHandler } from "$fresh/server.ts";
import manifest from "@/tests/fixtures/fresh_app/fresh.gen.ts";
import fixtureConfig from "@/tests/fixtures/fresh_app/fresh.config.ts";

export { fixtureConfig, manifest };

/** The fixture app's handler; bundles in memory unless `config.build.outDir` holds a snapshot. */
export function fixtureHandler(config: FreshConfig = {}): Promise<RequestHandler> {
  return createHandler(manifest, { ...fixtureConfig, dev: false, ...config });
}

/** Sends one request to `handler` (path relative to http://localhost). */
export function send(
  handler: RequestHandler,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  return handler(new Request(new URL(path, "http://localhost"), init));
}

/** GETs `path` and returns status, headers and body text. */
export async function fetchText(
  handler: RequestHandler,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await send(handler, path, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}
