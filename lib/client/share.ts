/** Copying and sharing from the browser: the Clipboard API and the Web Share API. */

/** The page a shared team link opens: the leaderboard with that team's dialog open. */
export function teamSharePath(competitionId: number, teamId: string): string {
  return `/leaderboard/${competitionId}?team=${encodeURIComponent(teamId)}`;
}

/** Puts `text` on the clipboard; false when the browser refuses (no permission, no API). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens the system share sheet when the browser has one. "shared" also when the person closed
 * the sheet (nothing more to do); "unavailable" when there is no sheet or the browser refused it
 * (a desktop browser, an insecure page), so the caller copies the link instead.
 */
export async function shareLink(
  data: { title: string; text: string; url: string },
): Promise<"shared" | "unavailable"> {
  if (typeof navigator.share !== "function") return "unavailable";
  try {
    await navigator.share(data);
    return "shared";
  } catch (err) {
    return err instanceof DOMException && err.name === "AbortError" ? "shared" : "unavailable";
  }
}
