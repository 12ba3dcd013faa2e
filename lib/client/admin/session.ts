/** Ends the admin session: the server drops it and clears the cookie; nothing is kept locally. */
import { LOGIN_PATH } from "@/lib/client/admin/admin_api.ts";

/** Logs out and goes to the login page (even when the call fails, the page is left). */
export async function logout(): Promise<void> {
  try {
    await fetch("/api/admin/logout", { method: "POST", credentials: "include" });
  } finally {
    location.assign(LOGIN_PATH);
  }
}
