import { useEffect } from "react";
import { track } from "@/lib/client/analytics.ts";

/** Records one 'page_view' per page load (mounted on public routes only). */
export default function PageView() {
  useEffect(() => track("page_view"), []);
  return null;
}
