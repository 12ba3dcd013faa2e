/**
 * `$fresh/runtime.ts` for the React render (render_all.tsx): lib/fresh's `Head` collects its
 * children through preact context, so here it renders them in place (React 19 hoists `<title>`
 * and `<meta>` itself) and they are checked like the rest.
 */
import { createElement, Fragment, type ReactNode } from "react";
export { asset, IS_BROWSER } from "@/lib/fresh/runtime.ts";

export function Head(props: { children?: ReactNode }) {
  return createElement(Fragment, null, props.children);
}
