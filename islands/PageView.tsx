import { useEffect } from "react";
import { track } from "@/lib/client/analytics.ts";

/**
 * Records one 'page_view' per page load and registers the service worker (static/sw.js: the
 * offline page and the last leaderboards seen); mounted on public routes only.
 */
export default function PageView() {
  useEffect(() => {
    track("page_view");
    navigator.serviceWorker?.register("/sw.js").catch(() => {}); // not offered: pages work as before
  }, []);
  return null;
}
