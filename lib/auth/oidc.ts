/**
 * Admin sign-in through an OpenID Connect provider with `oauth4webapi` (the library under
 * deno_kv_oauth): authorization code flow with PKCE (S256), `state` and `nonce`; the code is
 * exchanged server-side and the ID token checked (issuer, audience, nonce, expiry, and its
 * signature against the provider's JWKS); the e-mail comes from the ID token, or from UserInfo
 * for the same subject when the provider keeps it out of the token. The flow in progress lives in KV under a random id
 * kept in a short-lived HttpOnly cookie, and is readable once.
 */
import * as oauth from "oauth4webapi";
import { createAdmin, getAdminByUsername } from "@/lib/auth/records/admins.ts";
import { saveOAuthState, takeOAuthState } from "@/lib/auth/records/oauth_states.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import type { OidcConfig } from "@/lib/config.ts";
import type { AdminIdentity } from "./admins.ts";
import { hashPassword, randomToken } from "./passwords.ts";
import { readCookie } from "./sessions.ts";
import { beginAttempt, clearFailures } from "./throttle.ts";

export type { OidcConfig };

/** The cookie carrying the id of the sign-in in progress (sent back on the provider's redirect). */
export const OAUTH_COOKIE = "admin_oauth";
export const OAUTH_COOKIE_PATH = "/admin/oauth";
export const SIGNIN_PATH = "/admin/oauth/signin";
export const CALLBACK_PATH = "/admin/oauth/callback";
/** How long a sign-in may take at the provider. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Sign-ins an address may start per 10 minutes (each stores a flow in KV). */
export const SIGNIN_LIMIT = { bucket: "oidc_signin", limit: 20, windowMs: 10 * 60 * 1000 };
const METADATA_TTL_MS = 60 * 60 * 1000;
const SCOPE = "openid email profile";

/** A refused sign-in; `message` is shown to the person on the refusal page. */
export class OidcSignInError extends Error {
  constructor(message: string, readonly status = 403) {
    super(message);
    this.name = "OidcSignInError";
  }
}

/** True when `email` is in the allowed list, by exact address or by `@domain`. */
export function isAllowedEmail(allowed: readonly string[], email: string): boolean {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return false;
  const domain = address.slice(at);
  return allowed.some((entry) => entry === address || entry === domain);
}

/** The redirect URL to register at the provider: PUBLIC_URL (or this request's origin) + path. */
export function callbackUrl(publicUrl: string | null, requestUrl: URL): string {
  return `${publicUrl ?? requestUrl.origin}${CALLBACK_PATH}`;
}

/**
 * Starts a sign-in: stores state, PKCE verifier and nonce in KV and returns the provider's
 * authorization URL to redirect to, with the Set-Cookie naming the stored flow.
 */
export async function beginSignIn(
  kv: Deno.Kv,
  metadata: ProviderMetadata,
  config: OidcConfig,
  redirectUri: string,
  secure: boolean,
): Promise<{ location: string; cookie: string }> {
  const as = await authorizationServer(metadata, config);
  if (!as.authorization_endpoint) throw new Error("The provider has no authorization endpoint");
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const id = randomToken(24);
  await saveOAuthState(kv, id, { state, codeVerifier, nonce, redirectUri }, OAUTH_STATE_TTL_MS);
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  }).toString();
  return { location: url.href, cookie: flowCookie(id, OAUTH_STATE_TTL_MS / 1000, secure) };
}

/**
 * Finishes a sign-in at the callback: takes the stored flow (once), checks the `state`,
 * exchanges the code with the PKCE verifier, verifies the ID token and its signature, and
 * returns the verified, allowed e-mail address. OidcSignInError (with a reason to show) otherwise.
 */
export async function completeSignIn(
  kv: Deno.Kv,
  metadata: ProviderMetadata,
  config: OidcConfig,
  req: Request,
): Promise<{ email: string }> {
  const id = readCookie(req, OAUTH_COOKIE);
  const flow = id ? await takeOAuthState(kv, id) : null;
  if (!flow) {
    throw new OidcSignInError(
      "This sign-in expired or was already used. Please start again from the login page.",
      400,
    );
  }
  const as = await authorizationServer(metadata, config);
  const client: oauth.Client = { client_id: config.clientId };
  const claims = await exchangeCode(as, client, config, req, flow);
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (!email) throw new OidcSignInError("Your account at the provider has no e-mail address.");
  if (claims.email_verified !== true) {
    throw new OidcSignInError(`The provider has not verified the e-mail address ${email}.`);
  }
  if (!isAllowedEmail(config.adminEmails, email)) {
    throw new OidcSignInError(`${email} is not allowed to administer this site.`);
  }
  return { email };
}

async function exchangeCode(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  config: OidcConfig,
  req: Request,
  flow: { state: string; codeVerifier: string; nonce: string; redirectUri: string },
): Promise<oauth.IDToken> {
  const options = httpOptions(config);
  try {
    const params = oauth.validateAuthResponse(as, client, new URL(req.url), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(config.clientSecret),
      params,
      flow.redirectUri,
      flow.codeVerifier,
      options,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    await oauth.validateApplicationLevelSignature(as, response, options);
    const claims = oauth.getValidatedIdTokenClaims(result);
    if (!claims) throw new Error("no ID token");
    if (claims.email !== undefined || !as.userinfo_endpoint) return claims;
    // Providers that keep scope claims out of the ID token answer them at UserInfo, for the
    // same subject (checked).
    const info = await oauth.processUserInfoResponse(
      as,
      client,
      claims.sub,
      await oauth.userInfoRequest(as, client, result.access_token, options),
    );
    return { ...claims, email: info.email, email_verified: info.email_verified };
  } catch (err) {
    throw new OidcSignInError(`The sign-in could not be verified (${describe(err)}).`, 400);
  }
}

function describe(err: unknown): string {
  if (err instanceof oauth.AuthorizationResponseError) return `provider error: ${err.error}`;
  if (err instanceof oauth.ResponseBodyError) return `token endpoint: ${err.error}`;
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}

/** The Set-Cookie that ends the sign-in flow cookie. */
export function clearFlowCookie(secure: boolean): string {
  return flowCookie("", 0, secure);
}

function flowCookie(value: string, maxAge: number, secure: boolean): string {
  // Lax, not Strict: the provider's redirect back is a cross-site top-level navigation.
  const parts = [
    `${OAUTH_COOKIE}=${value}`,
    "HttpOnly",
    "SameSite=Lax",
    `Path=${OAUTH_COOKIE_PATH}`,
    `Max-Age=${maxAge}`,
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

/** Plain http is allowed only for a provider on this machine (tests, local bridges). */
function httpOptions(config: OidcConfig): { [oauth.allowInsecureRequests]?: boolean } {
  return new URL(config.issuer).protocol === "http:" ? { [oauth.allowInsecureRequests]: true } : {};
}

/** Providers' discovery documents kept by one isolate, by issuer (`Services.oidcMetadata`). */
export type ProviderMetadata = Map<
  string,
  { as: Promise<oauth.AuthorizationServer>; expires: number }
>;

/** The provider's discovery document, fetched once an hour per issuer. */
function authorizationServer(
  metadata: ProviderMetadata,
  config: OidcConfig,
): Promise<oauth.AuthorizationServer> {
  const now = Date.now();
  const hit = metadata.get(config.issuer);
  if (hit && hit.expires > now) return hit.as;
  const issuer = new URL(config.issuer);
  const as = oauth.discoveryRequest(issuer, { algorithm: "oidc", ...httpOptions(config) })
    .then((res) => oauth.processDiscoveryResponse(issuer, res));
  metadata.set(config.issuer, { as, expires: now + METADATA_TTL_MS });
  as.catch(() => metadata.delete(config.issuer));
  return as;
}

/**
 * The callback of a sign-in, throttled like password logins (a refused sign-in counts as a
 * failed login of the client's address): the admin to start a session for. The admin record
 * (username: the e-mail address) is created on the first sign-in, with an unusable random
 * password, so sessions name a real admin.
 */
export async function signInWithProvider(
  kv: Deno.Kv,
  metadata: ProviderMetadata,
  config: OidcConfig,
  req: Request,
  ip: string | null,
): Promise<AdminIdentity> {
  const keys = ip ? [`ip:${ip}`] : []; // the address key of password logins (throttle.ts)
  await beginAttempt(kv, keys);
  const { email } = await completeSignIn(kv, metadata, config, req);
  const admin = await findOrCreateAdmin(kv, email);
  await clearFailures(kv, keys);
  return admin;
}

async function findOrCreateAdmin(kv: Deno.Kv, email: string): Promise<AdminIdentity> {
  const existing = await getAdminByUsername(kv, email);
  if (existing) return { id: existing.id, username: existing.username };
  try {
    const admin = await createAdmin(kv, { username: email, ...await hashPassword(randomToken()) });
    return { id: admin.id, username: admin.username };
  } catch (err) {
    const raced = err instanceof ConflictError && await getAdminByUsername(kv, email);
    if (!raced) throw err;
    return { id: raced.id, username: raced.username };
  }
}
