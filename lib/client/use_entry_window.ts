/**
 * Whether a competition still takes entries while the visitor stays on the page: the deadline
 * is watched to the second, and the entry count is read again every 15 seconds (and when the
 * tab comes back), so a contest that fills or closes meanwhile disables paying with its reason.
 */
import { useEffect, useState } from "react";
import { apiFetch } from "@/lib/client/api.ts";
import { closedForEntries, type EntryWindow } from "@/lib/client/contests.ts";

const REFRESH_MS = 15_000;

/** Why the competition takes no entry now, or null while it does. */
export function useEntryWindow(competitionId: number, initial: EntryWindow): string | null {
  const [window, setWindow] = useState(initial);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const deadline = window.deadline ? new Date(window.deadline).getTime() : NaN;
    const left = deadline - Date.now();
    if (!(left > 0)) return;
    // Timers longer than about 24.8 days overflow; look again daily until the last day.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(left + 50, 86_400_000));
    return () => clearTimeout(timer);
  }, [window.deadline, now]);

  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      if (document.visibilityState === "hidden") return;
      try {
        const fresh = await apiFetch<EntryWindow>(`/api/competitions/${competitionId}`);
        if (!stopped && fresh) setWindow(fresh);
      } catch {
        // Offline for a moment: the server still refuses a closed contest before any payment.
      }
    };
    const timer = setInterval(refresh, REFRESH_MS);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [competitionId]);

  return closedForEntries(window, now);
}
