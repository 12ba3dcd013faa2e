/**
 * Product analytics from the browser: events go to our own POST /api/analytics,
 * never to a third party. Sending never blocks the page and never throws.
 */

export const ANALYTICS_EVENTS = [
  "page_view",
  "view_competition",
  "select_competition",
  "add_player",
  "remove_player",
  "complete_team_selection",
  "view_payment_page",
  "payment_success",
  "purchase",
] as const;
export type AnalyticsEventName = typeof ANALYTICS_EVENTS[number];

export interface AnalyticsProps {
  competitionId?: number;
  [key: string]: string | number | boolean | undefined;
}

const SESSION_KEY = "analytics_session";

/**
 * This tab's visitor session id (kept in session storage), so the funnel counts each step once
 * per visitor; undefined when storage is unavailable.
 */
function visitorSession(): string | undefined {
  try {
    let id = sessionStorage.getItem(SESSION_KEY);
    if (!id) {
      id = crypto.randomUUID();
      sessionStorage.setItem(SESSION_KEY, id);
    }
    return id;
  } catch {
    return undefined;
  }
}

/**
 * Records an event; survives a navigation that follows at once (sendBeacon, else keepalive).
 * @example track("add_player", { competitionId: 3, playerId: 12 })
 */
export function track(name: AnalyticsEventName, props: AnalyticsProps = {}): void {
  if (typeof window === "undefined") return;
  const { competitionId, ...rest } = props;
  const body = JSON.stringify({
    name,
    path: location.pathname,
    competitionId,
    session: visitorSession(),
    props: rest,
  });
  try {
    const blob = new Blob([body], { type: "application/json" });
    if (navigator.sendBeacon?.("/api/analytics", blob)) return;
    fetch("/api/analytics", {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
      credentials: "include",
      keepalive: true,
    }).catch(() => {});
  } catch {
    // Analytics must never break the page.
  }
}
