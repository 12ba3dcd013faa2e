/**
 * A push service on 127.0.0.1 standing in for the browser vendors' (the edge of the world: the
 * app's real `web-push` client encrypts and signs, this side checks like a vendor would), and
 * browser subscriptions with real P-256 keys made as a browser makes them. Each request's VAPID
 * JWT (RFC 8292: ES256 over the `k=` key, audience, expiry) is verified and its aes128gcm body
 * (RFC 8188/8291) parsed, and decrypted with the browser's private key unless `decrypt` says not
 * to (benches decrypt a sample: decrypting costs the service one more ECDH per message).
 */
import type { TestApp } from "@/tests/helpers/app.ts";

/** The app's setting that admits this local push service (push endpoints on 127.0.0.1). */
export const LOCAL_PUSH = { pushAllowLocal: true } as const;
/** The same setting for an app process (PUSH_ALLOW_LOCAL). */
export const LOCAL_PUSH_ENV = { PUSH_ALLOW_LOCAL: "1" } as const;

/** A browser's keys in the shape PUT /api/notifications takes (no browser holds them). */
export const SAMPLE_PUSH_KEYS = {
  p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
  auth: "tBHItJI5svbpez7KI4CCXg",
};

/** The endpoints the attack run had accepted, and the other forms of the same places. */
export const ATTACK_ENDPOINTS = [
  "https://169.254.169.254/",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://10.0.0.1/push",
  "https://192.168.1.1/push",
  "https://172.16.0.1/push",
  "https://[fd00::1]/push",
  "https://localhost/push",
  "https://app.localhost/push",
  "https://[::1]/push",
  "https://0.0.0.0/push",
  "https://[::ffff:127.0.0.1]/push",
  "https://[::ffff:7f00:1]/push",
  "https://[64:ff9b::7f00:1]/push",
  "https://127.1/push",
  "https://2130706433/push",
  "https://0x7f.1/push",
  "https://0177.0.0.1/push",
  "https://100.64.0.1/push",
  "https://[fe80::1]/push",
  "https://224.0.0.1/push",
  "https://255.255.255.255/push",
  "http://127.0.0.1:8000/push",
  "http://fcm.googleapis.com/fcm/send/x",
  "https://evil.example.com/push",
  "https://user:pw@fcm.googleapis.com/fcm/send/x",
];

const enc = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(text: string): Uint8Array<ArrayBuffer> {
  const s = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(s + "=".repeat((4 - s.length % 4) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** A browser's subscription: what it gives the app, and the private half it keeps. */
export interface TestBrowser {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  privateKey: CryptoKey;
  publicRaw: Uint8Array<ArrayBuffer>;
  auth: Uint8Array<ArrayBuffer>;
}

/** A message the service received for a browser. */
export interface ReceivedPush {
  browserId: string;
  /** The decrypted payload (null when not decrypted). */
  payload: unknown;
  ttl: number;
}

export interface TestPushService {
  origin: string;
  /** A new browser subscribed at this service (real P-256 keys and a 16-byte auth secret). */
  subscribe(): Promise<TestBrowser>;
  received: ReceivedPush[];
  /** Requests refused (bad JWT or body), with why. */
  refused: string[];
  /**
   * Answers `status` (e.g. 410: the browser dropped it) for this browser from now on, or for its
   * next `times` pushes only (then accepts again), with a `Retry-After` header when given.
   */
  answer(
    browserId: string,
    status: number,
    options?: { times?: number; retryAfter?: string },
  ): void;
  /** Every answer given, in order (refusals included). */
  answers: { browserId: string; status: number }[];
  /** Called on each accepted push (benches time the last one). */
  onPush?: (push: ReceivedPush) => void;
  close(): Promise<void>;
}

async function hmac(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Decrypts an aes128gcm body for `browser` (RFC 8291 key derivation, one record). */
export async function decryptPush(browser: TestBrowser, body: Uint8Array): Promise<string> {
  const salt = body.slice(0, 16);
  const idlen = body[20];
  const asPublic = body.slice(21, 21 + idlen);
  const cipher = body.slice(21 + idlen);
  const asKey = await crypto.subtle.importKey(
    "raw",
    asPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const secret = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: asKey }, browser.privateKey, 256),
  );
  const prkKey = await hmac(browser.auth, secret);
  const one = new Uint8Array([1]);
  const ikm = await hmac(
    prkKey,
    concat(enc.encode("WebPush: info\0"), browser.publicRaw, asPublic, one),
  );
  const prk = await hmac(salt, ikm);
  const cek = (await hmac(prk, concat(enc.encode("Content-Encoding: aes128gcm\0"), one)))
    .slice(0, 16);
  const nonce = (await hmac(prk, concat(enc.encode("Content-Encoding: nonce\0"), one)))
    .slice(0, 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const plain = new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, cipher),
  );
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("last record's padding delimiter is not 2");
  return new TextDecoder().decode(plain.subarray(0, end));
}

/** The aes128gcm header is well formed: salt, record size, a 65-byte uncompressed P-256 key. */
function checkBodyFormat(body: Uint8Array): string | null {
  if (body.length < 21 + 65 + 17) return "body too short for aes128gcm";
  const rs = new DataView(body.buffer, body.byteOffset).getUint32(16);
  if (rs < 18) return `record size ${rs}`;
  if (body[20] !== 65 || body[21] !== 4) return "key id is not an uncompressed P-256 key";
  return null;
}

const verifiedTokens = new Map<string, number>();

/** Verifies a `vapid t=…, k=…` header for `audience`; returns why not, or null. */
async function checkVapid(header: string | null, audience: string): Promise<string | null> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return "no VAPID Authorization header";
  const [, token, k] = m;
  const [h, p, s] = token.split(".");
  const claims = JSON.parse(new TextDecoder().decode(unb64url(p)));
  if (claims.aud !== audience) return `audience ${claims.aud}`;
  if (!(claims.exp > Date.now() / 1000) || claims.exp > Date.now() / 1000 + 86_400) {
    return "expiry not within 24 hours";
  }
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) return "subject";
  if (verifiedTokens.get(token) === claims.exp) return null;
  const key = await crypto.subtle.importKey(
    "raw",
    unb64url(k),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const ok = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    unb64url(s),
    enc.encode(`${h}.${p}`),
  );
  if (!ok) return "bad JWT signature";
  verifiedTokens.set(token, claims.exp);
  return null;
}

/**
 * Starts the push service on a free port. `decrypt`: decrypt every payload (default), or one in
 * `n` (every message's header and JWT are still checked).
 */
export function startTestPushService(
  { decryptEvery = 1 }: { decryptEvery?: number } = {},
): TestPushService {
  const browsers = new Map<string, TestBrowser>();
  const statuses = new Map<string, { status: number; times: number; retryAfter?: string }>();
  const answers: { browserId: string; status: number }[] = [];
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let count = 0;
  const service: TestPushService = {
    origin: "",
    received,
    refused,
    answers,
    async subscribe() {
      const pair = await crypto.subtle.generateKey(
        { name: "ECDH", namedCurve: "P-256" },
        true,
        ["deriveBits"],
      ) as CryptoKeyPair;
      const publicRaw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      const id = crypto.randomUUID();
      const browser: TestBrowser = {
        id,
        subscription: {
          endpoint: `${service.origin}/push/${id}`,
          keys: { p256dh: b64url(publicRaw), auth: b64url(auth) },
        },
        privateKey: pair.privateKey,
        publicRaw,
        auth,
      };
      browsers.set(id, browser);
      return browser;
    },
    answer: (id, status, { times = Infinity, retryAfter } = {}) =>
      void statuses.set(id, { status, times, retryAfter }),
    close: async () => {
      await server.shutdown();
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const id = url.pathname.split("/")[2] ?? "";
      const browser = browsers.get(id);
      const body = new Uint8Array(await req.arrayBuffer());
      if (req.method !== "POST" || !browser) return new Response(null, { status: 404 });
      const told = statuses.get(id);
      if (told && told.times-- > 0) {
        answers.push({ browserId: id, status: told.status });
        const headers = told.retryAfter ? { "retry-after": told.retryAfter } : undefined;
        return new Response(null, { status: told.status, headers });
      }
      const why = req.headers.get("content-encoding") !== "aes128gcm"
        ? "content-encoding"
        : checkBodyFormat(body) ?? await checkVapid(req.headers.get("authorization"), url.origin);
      if (why) {
        refused.push(why);
        return new Response(why, { status: 400 });
      }
      const ttl = Number(req.headers.get("ttl"));
      let payload: unknown = null;
      if (count++ % decryptEvery === 0) {
        try {
          payload = JSON.parse(await decryptPush(browser, body));
        } catch (err) {
          refused.push(`decrypt: ${err instanceof Error ? err.message : err}`);
          return new Response("cannot decrypt", { status: 400 });
        }
      }
      const push = { browserId: id, payload, ttl };
      received.push(push);
      answers.push({ browserId: id, status: 201 });
      service.onPush?.(push);
      return new Response(null, { status: 201 });
    },
  );
  service.origin = `http://127.0.0.1:${server.addr.port}`;
  return service;
}

/**
 * A new browser of `service` granted both pushes ("my picks scored", "final standings") for the
 * entry behind `editToken`, through `PUT /api/notifications/{editToken}`; the settings' view.
 */
export async function subscribeEntry(
  app: TestApp,
  service: TestPushService,
  editToken: string,
): Promise<{ browser: TestBrowser; view: Record<string, unknown> }> {
  const browser = await service.subscribe();
  const res = await app.request(`/api/notifications/${editToken}`, {
    method: "PUT",
    json: { push: browser.subscription, pushScored: true, pushFinal: true },
  });
  if (res.status !== 200) throw new Error(`push not granted: ${res.status} ${await res.text()}`);
  return { browser, view: await res.json() };
}
