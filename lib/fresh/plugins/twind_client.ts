/**
 * Browser side of the twind plugin: claims the server's style element and installs twind, which
 * resumes from the server CSS and styles classes that islands add at runtime.
 */
/// <reference lib="dom" />
import { install, type TwindConfig } from "@twind/core";

/** Installs twind with `config`, resuming from the style element with id `styleId`. */
// deno-lint-ignore no-explicit-any
export default function hydrate(config: TwindConfig<any>, styleId: string): void {
  const style = document.getElementById(styleId);
  if (style) style.dataset.twind = "";
  install(config);
}
