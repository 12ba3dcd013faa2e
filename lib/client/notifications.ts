/**
 * The browser side of an entry's notification settings: read and change them (the entry's edit
 * token opens them), and this browser's push subscription, made through the service worker.
 */
import { apiFetch } from "@/lib/client/api.ts";
import type { ConsentSource } from "@/lib/domain/schemas/notifications.ts";

/** An opt-in as given: when and where. */
export interface ConsentView {
  at: string;
  source: ConsentSource;
}

/** What GET/PUT /api/notifications/{token} answer. */
export interface NotifySettings {
  teamId: string;
  deadlineEmail: ConsentView | null;
  resultEmail: ConsentView | null;
  pushScored: ConsentView | null;
  pushFinal: ConsentView | null;
  pushEndpoint: string | null;
  deadlineSentAt: string | null;
  resultSentAt: string | null;
  unsubscribedAt: string | null;
  bouncedAt: string | null;
  vapidPublicKey: string;
}

export type NotifyChoice = "deadlineEmail" | "resultEmail" | "pushScored" | "pushFinal";

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The settings of the entry behind `token`. */
export function loadNotifySettings(token: string): Promise<NotifySettings> {
  return apiFetch<NotifySettings>(`/api/notifications/${encodeURIComponent(token)}`);
}

/** Where the settings of `token` are changed from `source`: the route records the consent's source. */
export function notifySettingsPath(token: string, source: ConsentSource = "my-entries"): string {
  const base = `/api/notifications/${encodeURIComponent(token)}`;
  return source === "my-entries" ? base : `${base}/${source}`;
}

/** Changes some settings from the page `source`; resolves to all of them. */
export function saveNotifySettings(
  token: string,
  change: Partial<Record<NotifyChoice, boolean>> & { push?: PushSubscriptionJson | null },
  source: ConsentSource = "my-entries",
): Promise<NotifySettings> {
  return apiFetch<NotifySettings>(notifySettingsPath(token, source), {
    method: "PUT",
    json: change,
  });
}

/** Whether this browser can receive push notifications at all. */
export function pushSupported(): boolean {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator &&
    typeof globalThis.PushManager !== "undefined" && typeof Notification !== "undefined";
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const s = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(s + "=".repeat((4 - s.length % 4) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/**
 * This browser's push subscription for the site (asking the visitor's permission first), or
 * an error saying why there is none.
 */
export async function subscribePush(vapidPublicKey: string): Promise<PushSubscriptionJson> {
  if (!pushSupported()) throw new Error("This browser cannot show notifications.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error("Notifications are blocked for this site in your browser settings.");
  }
  await navigator.serviceWorker.register("/sw.js");
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  const subscription = existing ?? await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(vapidPublicKey),
  });
  const json = subscription.toJSON();
  return {
    endpoint: subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
  };
}

/** The endpoint of this browser's current push subscription, or null. */
export async function currentPushEndpoint(): Promise<string | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription())?.endpoint ?? null;
}
