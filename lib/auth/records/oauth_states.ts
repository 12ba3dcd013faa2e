/** Sign-ins through the identity provider in progress, each readable once, expiring in KV. */
import { isKeyText, keys } from "@/lib/store/keys.ts";

export interface OAuthState {
  /** The `state` parameter sent to the provider. */
  state: string;
  /** The PKCE code verifier (its S256 challenge went to the provider). */
  codeVerifier: string;
  /** The `nonce` the ID token must carry. */
  nonce: string;
  /** The redirect URI sent with the authorization request (the token request repeats it). */
  redirectUri: string;
}

/** Stores a sign-in in progress under `id` for `ttlMs` milliseconds. */
export async function saveOAuthState(
  kv: Deno.Kv,
  id: string,
  value: OAuthState,
  ttlMs: number,
): Promise<void> {
  await kv.set(keys.oauthState(id), { ...value, expiresAt: Date.now() + ttlMs }, {
    expireIn: ttlMs,
  });
}

/**
 * Reads and deletes the sign-in stored under `id` in one atomic, so two callbacks cannot both
 * use it; null when unknown, expired or already taken.
 */
export async function takeOAuthState(kv: Deno.Kv, id: string): Promise<OAuthState | null> {
  if (!isKeyText(id)) return null;
  const entry = await kv.get<OAuthState & { expiresAt: number }>(keys.oauthState(id));
  if (!entry.value) return null;
  const res = await kv.atomic().check(entry).delete(entry.key).commit();
  if (!res.ok || entry.value.expiresAt <= Date.now()) return null;
  const { expiresAt: _, ...state } = entry.value;
  return state;
}
