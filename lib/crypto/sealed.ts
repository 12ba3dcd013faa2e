/**
 * Sealing secrets at rest: AES-256-GCM with a random 96-bit nonce per value, the result as
 * base64 `nonce ‖ ciphertext ‖ tag`. Used for winners' payout details, so a copy of the store
 * (a dump, a backup) does not hold anyone's bank account or address in clear.
 */
import {
  decodeBase64,
  encodeBase64,
  encodeBase64urlNoPadding,
  encodeHexLowerCase,
} from "@oslojs/encoding";

/** An AES-256-GCM key from 32 bytes (e.g. base64-decoded PAYOUT_ENCRYPTION_KEY). */
export function importSealKey(raw: Uint8Array): Promise<CryptoKey> {
  if (raw.length !== 32) throw new Error("A seal key is 32 bytes");
  return crypto.subtle.importKey("raw", new Uint8Array(raw), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
}

/** 32 random bytes, base64: a new key. */
export function newSealKey(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The key as configured (base64 of 32 bytes). */
export function sealKeyFromBase64(text: string): Promise<CryptoKey> {
  return importSealKey(decodeBase64(text));
}

/** Encrypts `value` (as JSON); `context` binds it to its record (a copy elsewhere fails to open). */
export async function seal(key: CryptoKey, value: unknown, context: string): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const additionalData = new TextEncoder().encode(context);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData }, key, plain),
  );
  const out = new Uint8Array(nonce.length + sealed.length);
  out.set(nonce);
  out.set(sealed, nonce.length);
  return encodeBase64(out);
}

/** Decrypts what `seal` made with the same key and context (throws when either differs). */
export async function unseal<T>(key: CryptoKey, text: string, context: string): Promise<T> {
  const bytes = decodeBase64(text);
  const additionalData = new TextEncoder().encode(context);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(bytes.slice(0, 12)), additionalData },
    key,
    new Uint8Array(bytes.slice(12)),
  );
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}

/** SHA-256 of a text, hex: how claim tokens are stored. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return encodeHexLowerCase(new Uint8Array(digest));
}

/** A secret of `bytes` random bytes, hex encoded (session ids, sign-in links, passwords). */
export function randomHex(bytes = 32): string {
  return encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A random token of 128 bits, URL-safe. */
export function randomToken(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(16)));
}
