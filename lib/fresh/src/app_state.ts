/** The state one `createHandler` call builds and every part of the request handling reads. */
import type { Build } from "./bundle.ts";
import type { ClientAssets } from "./render.ts";
import type { RouteTable } from "./router.ts";
import type { EncodedFile } from "./compress.ts";
import type { FreshConfig } from "./types.ts";

/** The built app: routes, bundle, client assets, static files and compressed bundle files. */
export interface App {
  table: RouteTable;
  build: Build;
  assets: ClientAssets;
  staticFiles: Map<string, string>;
  config: FreshConfig;
  dev: boolean;
  /** Bundle files with their encoded variants, by file name. */
  chunks: Map<string, Promise<EncodedFile | null>>;
  /** Where the build step wrote the static files' variants (null: no build on disk). */
  staticVariants: string | null;
}

/** GET and HEAD: the methods that only read. */
export function isRead(req: Request): boolean {
  return req.method === "GET" || req.method === "HEAD";
}
