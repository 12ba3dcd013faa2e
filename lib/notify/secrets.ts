/**
 * The notifications' keys: the VAPID pair browser push is signed with (VAPID_* from the
 * environment, else a pair generated once and kept in the store, for development) and the secret
 * one-click unsubscribe tokens are signed with (kept in the store).
 */
import webpush from "web-push";
import { DEFAULT_VAPID_SUBJECT, type VapidConfig } from "@/lib/config.ts";
import { keys } from "@/lib/store/keys.ts";
import type { NotifyState } from "./state.ts";

/** A store-held secret: read, or made by `make` once (the first writer wins). */
async function storeSecret<T>(kv: Deno.Kv, name: string, make: () => T): Promise<T> {
  const key = keys.secret(name);
  const stored = await kv.get<T>(key);
  if (stored.value) return stored.value;
  const fresh = make();
  const res = await kv.atomic().check(stored).set(key, fresh).commit();
  return res.ok ? fresh : (await kv.get<T>(key)).value!;
}

/**
 * The VAPID keys: the configured ones, else the store's (generated on first use, then kept in
 * `notify`).
 */
export function vapidKeys(
  kv: Deno.Kv,
  notify: NotifyState,
  config: { vapid?: VapidConfig | null },
): Promise<VapidConfig> {
  if (config.vapid) return Promise.resolve(config.vapid);
  let found = notify.vapidKeys;
  if (!found) {
    found = storeSecret(kv, "vapid_keys", () => webpush.generateVAPIDKeys())
      .then((pair) => ({ ...pair, subject: DEFAULT_VAPID_SUBJECT }));
    const made = found;
    found.catch(() => {
      if (notify.vapidKeys === made) notify.vapidKeys = null;
    });
    notify.vapidKeys = found;
  }
  return found;
}

function unsubscribeKey(kv: Deno.Kv, notify: NotifyState): Promise<CryptoKey> {
  let key = notify.unsubscribeKey;
  if (!key) {
    key = storeSecret(kv, "notify_unsubscribe", () => {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }).then((hex) =>
      crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(hex),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      )
    );
    const made = key;
    key.catch(() => {
      if (notify.unsubscribeKey === made) notify.unsubscribeKey = null;
    });
    notify.unsubscribeKey = key;
  }
  return key;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function signature(
  kv: Deno.Kv,
  notify: NotifyState,
  cid: number,
  entryId: number,
): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await unsubscribeKey(kv, notify),
    new TextEncoder().encode(`unsubscribe:${cid}:${entryId}`),
  );
  return base64url(new Uint8Array(mac).subarray(0, 16));
}

/** The one-click unsubscribe token of an entry's e-mails: `cid.entryId.signature`. */
export async function unsubscribeToken(
  kv: Deno.Kv,
  notify: NotifyState,
  cid: number,
  entryId: number,
): Promise<string> {
  return `${cid}.${entryId}.${await signature(kv, notify, cid, entryId)}`;
}

/** The entry an unsubscribe token names, or null when it is not one this store signed. */
export async function readUnsubscribeToken(
  kv: Deno.Kv,
  notify: NotifyState,
  token: string,
): Promise<{ cid: number; entryId: number } | null> {
  const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const cid = Number(match[1]);
  const entryId = Number(match[2]);
  const expected = await signature(kv, notify, cid, entryId);
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ match[3].charCodeAt(i);
  return diff === 0 ? { cid, entryId } : null;
}
