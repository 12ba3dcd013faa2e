/**
 * A toast carried over one page navigation (e.g. 'Competition Created' shown on the dashboard
 * after the form saved). Kept in session storage; it holds only the toast text, never credentials.
 */
import { toast, type ToastOptions } from "@/lib/client/toast.ts";

const FLASH_KEY = "admin_flash";

/** Remembers a toast to show on the next admin page. */
function setFlash(options: ToastOptions): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(options));
  } catch {
    toast(options);
  }
}

/** Shows and forgets the remembered toast, if any. */
export function showFlash(): void {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    toast(JSON.parse(raw) as ToastOptions);
  } catch {
    // A damaged flash is dropped.
  }
}

/** Shows `options` on the page at `path` after navigating there. */
export function navigateWithToast(path: string, options: ToastOptions): void {
  setFlash(options);
  location.assign(path);
}
