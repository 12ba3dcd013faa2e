import { lazy, Suspense, useEffect, useState } from "react";
import { editTokenOf } from "@/lib/client/user_entries.ts";

/** The settings and the push code load only in the browser that holds the entry's secret. */
const NotificationSettings = lazy(() =>
  import("@/components/NotificationSettings.tsx").then((m) => ({ default: m.NotificationSettings }))
);

export interface EntryNotificationsProps {
  teamId: string;
  /** Before the deadline: the deadline e-mail can still be turned on. */
  upcoming: boolean;
}

/**
 * The confirmation page's "Notifications" card: the entry's e-mail and push settings, as on My
 * entries, open at once; nothing in a browser that does not hold the entry's edit secret (the
 * page is public by team ID). Consents given here are recorded as given on the confirmation page.
 */
export default function EntryNotifications({ teamId, upcoming }: EntryNotificationsProps) {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => setToken(editTokenOf(teamId)), [teamId]);
  if (!token) return null;
  return (
    <Suspense
      fallback={
        <div className="rounded-lg border border-border text-sm">
          <p className="px-3 py-2 font-medium">Notifications</p>
          <p className="border-t border-border px-3 py-3 text-muted-foreground">Loading...</p>
        </div>
      }
    >
      <NotificationSettings
        teamId={teamId}
        editToken={token}
        upcoming={upcoming}
        source="confirmation"
        startOpen
        className=""
      />
    </Suspense>
  );
}
