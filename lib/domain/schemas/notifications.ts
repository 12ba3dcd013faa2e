/** Input schemas of the notification settings (PUT /api/notifications/{editToken}). */
import * as z from "zod/mini";

/**
 * Whether `endpoint` reads as a URL. Where it may point (https, a browser's push service, a public
 * address) is the server's check (lib/net/public_url.ts), made when it is saved and at each send.
 */
function isUrl(endpoint: string): boolean {
  try {
    new URL(endpoint);
    return true;
  } catch {
    return false;
  }
}

/** Where an opt-in may be given: at checkout, on My entries, on the confirmation page. */
export const CONSENT_SOURCES = ["checkout", "my-entries", "confirmation"] as const;
export type ConsentSource = typeof CONSENT_SOURCES[number];

const onOff = (name: string) => z.optional(z.boolean({ error: `${name} must be true or false` }));

/** A browser's push subscription as `PushSubscription.toJSON()` gives it. */
const pushTarget = z.object({
  endpoint: z.string({ error: "Push endpoint must be a URL" }).check(
    z.maxLength(1000, "Push endpoint is too long"),
    z.refine(isUrl, "Push endpoint must be a URL"),
  ),
  keys: z.object({
    p256dh: z.string({ error: "Push key p256dh is required" }).check(
      z.regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, "Push key p256dh must be a P-256 public key"),
    ),
    auth: z.string({ error: "Push key auth is required" }).check(
      z.regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, "Push key auth must be 16 bytes"),
    ),
  }, { error: "Push keys are required" }),
}, { error: "Push subscription must be an object" });

/**
 * The settings change: each opt-in on or off, the browser to push to (null revokes push). Where
 * it was given is the route's to say (a `source` in the body is dropped unread).
 */
export const notifySettingsSchema = z.object({
  deadlineEmail: onOff("deadlineEmail"),
  resultEmail: onOff("resultEmail"),
  pushScored: onOff("pushScored"),
  pushFinal: onOff("pushFinal"),
  push: z.optional(z.nullable(pushTarget)),
});
export type NotifySettingsInput = z.infer<typeof notifySettingsSchema>;
