/**
 * A real OpenID Connect provider (`oidc-provider`, the certified Node implementation) running
 * in this process on a free loopback port, for the admin sign-in tests. Its dev login page takes
 * any login: the login is the account's e-mail address (verified, unless it starts with
 * `unverified+`). Consent is granted automatically. `tamperIdToken` lets a test rewrite the ID
 * token of the next token responses; `signJwt` signs with the provider's own key (or another).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { freePort } from "./server.ts";

export const TEST_CLIENT_ID = "fantasy-contests";
export const TEST_CLIENT_SECRET = "test-client-secret-with-enough-entropy";

export interface TestProvider {
  issuer: string;
  /** The provider's signing key (private JWK; its public half is served at /jwks). */
  signingKey: JsonWebKey & { kid: string };
  /** When set, rewrites each ID token the token endpoint answers. */
  tamperIdToken: ((idToken: string) => Promise<string>) | null;
  close(): Promise<void>;
}

/**
 * Starts the provider on `port` (a free one by default); `redirectUris` are the callback URLs its
 * client may use.
 */
export async function startTestProvider(
  redirectUris: string[],
  port = freePort(),
): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const signingKey = await generateSigningKey("provider-key-1");
  const oidc = new Provider(issuer, {
    clients: [{
      client_id: TEST_CLIENT_ID,
      client_secret: TEST_CLIENT_SECRET,
      redirect_uris: redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }],
    jwks: { keys: [signingKey as unknown as Record<string, string>] },
    cookies: { keys: ["test-cookie-signing-key"] },
    ttl: { AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: id.replace(/^unverified\+/, ""),
        email_verified: !id.startsWith("unverified+"),
        name: id.split("@")[0],
      }),
    }),
    // deno-lint-ignore no-explicit-any
    loadExistingGrant: async (ctx: any) => {
      const clientId = ctx.oidc.client.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(clientId);
      if (grantId) return await ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  const provider: TestProvider = { issuer, signingKey, tamperIdToken: null, close: () => close() };
  // deno-lint-ignore no-explicit-any
  oidc.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === "/token" && ctx.status === 200 && body?.id_token && provider.tamperIdToken) {
      body.id_token = await provider.tamperIdToken(body.id_token);
    }
  });
  const server = http.createServer(oidc.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  assertPort(server.address() as AddressInfo, port);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return provider;
}

function assertPort(addr: AddressInfo, port: number): void {
  if (addr.port !== port) throw new Error(`provider listens on ${addr.port}, not ${port}`);
}

/** A fresh RS256 key pair as a private JWK with `kid`, `alg` and `use`. */
export async function generateSigningKey(kid: string): Promise<JsonWebKey & { kid: string }> {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  );
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { ...jwk, kid, alg: "RS256", use: "sig", key_ops: undefined };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64url(text: string): string {
  return atob(text.replace(/-/g, "+").replace(/_/g, "/"));
}

/** The claims of a JWT (not verified: the tests read what the provider issued). */
export function decodeJwt(jwt: string): Record<string, unknown> {
  return JSON.parse(fromBase64url(jwt.split(".")[1]));
}

/** Signs `claims` as an RS256 JWT with `key` (real signature, WebCrypto). */
export async function signJwt(
  claims: Record<string, unknown>,
  key: JsonWebKey & { kid: string },
): Promise<string> {
  const { kid, alg: _alg, use: _use, key_ops: _ops, ...material } = key;
  const privateKey = await crypto.subtle.importKey(
    "jwk",
    material,
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
  const input = `${encode({ alg: "RS256", typ: "JWT", kid })}.${encode(claims)}`;
  const signature = await crypto.subtle.sign(
    "RSASSA-PKCS1-v1_5",
    privateKey,
    new TextEncoder().encode(input),
  );
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** A minimal cookie jar for driving the provider's pages with fetch. */
class CookieJar {
  #cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") {
        this.#cookies.delete(name);
      } else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Logs in at the provider as `email` the way a browser would (its login form, then the redirect
 * back), starting from the provider's authorization URL; returns the callback URL it sends the
 * browser to (with `code`, `state` and `iss`).
 */
export async function loginAtProvider(authorizationUrl: string, email: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, cookie: jar.header() },
    });
    jar.store(res);
    init = {};
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      const next = new URL(location, url);
      if (next.origin !== new URL(authorizationUrl).origin) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html}`);
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${html}`);
    const form: Record<string, string> = html.includes('name="login"')
      ? { prompt: "login", login: email, password: "any" }
      : { prompt: "consent" };
    url = new URL(action, url);
    init = {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  throw new Error("too many redirects at the provider");
}
