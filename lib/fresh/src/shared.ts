/**
 * State shared between the server renderer and browser code: the `<Head>` collector context
 * and the current BUILD_ID. Browser-safe: no Deno APIs.
 */
import { type ComponentChildren, createContext } from "preact";

/** Collects `<Head>` children during server rendering; null in the browser. */
export const HeadContext = createContext<ComponentChildren[] | null>(null);

let buildId = "";

/** Sets the BUILD_ID that `asset()` appends (server at start, browser at boot). */
export function setBuildId(id: string): void {
  buildId = id;
}

/** The current BUILD_ID ("" before the server or the boot script set it). */
export function getBuildId(): string {
  return buildId;
}
