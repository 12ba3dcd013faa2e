/** Admin password hashing: PBKDF2-SHA256 through WebCrypto with a per-user salt. */

export const PBKDF2_ITERATIONS = 210_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

export interface PasswordHash {
  /** Base64 of the derived key. */
  passwordHash: string;
  /** Base64 of the random salt. */
  salt: string;
  iterations: number;
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return { passwordHash: toBase64(hash), salt: toBase64(salt), iterations: PBKDF2_ITERATIONS };
}

/** True when `password` matches the stored hash (constant-time comparison). */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = fromBase64(stored.passwordHash);
  const actual = await derive(password, fromBase64(stored.salt), stored.iterations);
  return timingSafeEqual(actual, expected);
}

/** Compares two byte arrays in time independent of where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** A random URL-safe token of `bytes` random bytes (hex encoded). */
export { randomHex as randomToken } from "@/lib/crypto/sealed.ts";

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}
