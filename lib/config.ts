/**
 * Reads and validates the process configuration from environment variables.
 * Every problem is a `ConfigError` with a one-line message naming the variable.
 */
import { dirname } from "node:path";

/** What the services need of the configuration (lib/services.ts); `loadConfig` reads it. */
/** The identity provider admins may sign in with (lib/auth/oidc.ts runs the flow). */
export interface OidcConfig {
  /** The issuer URL (its `/.well-known/openid-configuration` describes the provider). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who may sign in: exact addresses and `@domain` entries, lower case. */
  adminEmails: string[];
  /** Shown on the login button: "Sign in with <providerName>". */
  providerName: string;
}

export interface AppConfig {
  port: number;
  kvPath: string;
  demoData: boolean;
  adminUsername: string | null;
  adminPassword: string | null;
  stripeSecretKey: string | null;
  stripePublishableKey: string | null;
  stripeWebhookSecret: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** The site's public origin (no trailing slash) for links in e-mails; null: the request's. */
  publicUrl: string | null;
  /** Base64 key sealing winners' payout details; null: one kept in the store (with a warning). */
  payoutKey?: string | null;
  /** Admin sign-in through an OpenID Connect provider; null or unset: password logins only. */
  oidc?: OidcConfig | null;
  /** Password logins need a TOTP code (admins without one are sent to set it up). */
  adminRequire2fa?: boolean;
  /** Payment intents per client address in 10 minutes (default 30; 0: no limit). */
  intentsPer10Min?: number;
  /** The live feed's own port (LIVE_WS_PORT), where /ws refuses oversized frames unread. */
  liveWsPort?: number | null;
  /**
   * The store's `kv.watch` reports the writes of every process (a remote store: Deno Deploy, KV
   * Connect), so the live hub needs no polling; a local file's watch misses other processes'.
   */
  kvWatchNative?: boolean;
  /** Most live sockets one isolate serves (LIVE_MAX_SOCKETS; default the hub's MAX_SOCKETS). */
  liveMaxSockets?: number;
  /** The VAPID key pair browser push is signed with; null or unset: one kept in the store. */
  vapid?: VapidConfig | null;
  /**
   * Push endpoints on this machine's loopback are admitted (PUSH_ALLOW_LOCAL=1, for tests and
   * benches with a local push service); otherwise only the browser vendors' push services.
   */
  pushAllowLocal?: boolean;
}

/** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints) and VAPID_SUBJECT. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** AppConfig plus the interface the HTTP server binds to. */
export interface ServerConfig extends AppConfig {
  host: string;
  /**
   * Running on Deno Deploy (DENO_DEPLOYMENT_ID is set; Deploy runs with `--allow-all`, so
   * permissions tell nothing): the build must be prebuilt, the store is Deploy's
   * (`Deno.openKv()`), logs are kept (no generated password) and `Deno.cron` runs the jobs.
   */
  deploy: boolean;
  /** One JSON line per request on standard output (REQUEST_LOG; default on Deploy only). */
  requestLog: boolean;
}

/** A configuration problem the operator must fix; `message` is one line. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

export const DEFAULT_PORT = 8000;
export const DEFAULT_KV_PATH = "./data/app.kv";
export const DEFAULT_MAIL_FROM = "Fantasy Contests <no-reply@localhost>";
export const DEFAULT_HOST = "127.0.0.1";

/** The value of `name`, or null when unset or blank. */
function read(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function parsePort(raw: string | null, name = "PORT"): number {
  if (raw === null) return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError(`${name} must be an integer from 1 to 65535 (got "${raw}")`);
  }
  return port;
}

/**
 * LIVE_WS_PORT: the live feed's own port (lib/http/live_port.ts), another than PORT; null (unset)
 * keeps /ws on the main port.
 */
function parseLiveWsPort(raw: string | null, port: number): number | null {
  if (raw === null) return null;
  const live = parsePort(raw, "LIVE_WS_PORT");
  if (live === port) throw new ConfigError("LIVE_WS_PORT must differ from PORT");
  return live;
}

/** Most live sockets per isolate (LIVE_MAX_SOCKETS), a whole number of 1 or more. */
function parseLiveMaxSockets(raw: string | null): { liveMaxSockets?: number } {
  if (raw === null) return {};
  if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(`LIVE_MAX_SOCKETS must be a whole number, 1 or more (got "${raw}")`);
  }
  return { liveMaxSockets: Number(raw) };
}

/** Payment intents per client address in 10 minutes; 0 turns the limit off (load benches). */
function parseIntentLimit(raw: string | null): { intentsPer10Min?: number } {
  if (raw === null) return {};
  if (!/^\d{1,9}$/.test(raw)) {
    throw new ConfigError(`PAYMENT_INTENTS_PER_10_MIN must be a whole number (got "${raw}")`);
  }
  return { intentsPer10Min: Number(raw) };
}

function parseDemoData(raw: string | null): boolean {
  if (raw === null || raw === "1") return true;
  if (raw === "0") return false;
  throw new ConfigError(`DEMO_DATA must be 1 or 0 (got "${raw}")`);
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}

/** Creates the folder of a file-backed KV store and checks that it can be written. */
function prepareKvPath(path: string): void {
  const dir = dirname(path);
  try {
    Deno.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new ConfigError(
      `DENO_KV_PATH "${path}": cannot create the folder "${dir}" (${reason(err)})`,
    );
  }
  const probe = `${dir}/.write-test-${crypto.randomUUID()}`;
  try {
    Deno.writeTextFileSync(probe, "");
    Deno.removeSync(probe);
    checkExistingFile(path);
  } catch (err) {
    throw new ConfigError(`DENO_KV_PATH "${path}" is not writable (${reason(err)})`);
  }
}

/** Throws when `path` exists but is a folder or cannot be opened for writing. */
function checkExistingFile(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  if (info.isDirectory) throw new Error("it is a folder, not a file");
  Deno.openSync(path, { read: true, write: true }).close();
}

/**
 * A KV Connect URL (a managed Deno KV, or a self-hosted denokv shared by several machines):
 * https, or http on this machine only, with the access token Deno sends in DENO_KV_ACCESS_TOKEN.
 */
function parseKvConnectUrl(raw: string, env: Env): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`DENO_KV_PATH "${raw}" is not a valid KV Connect URL`);
  }
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    throw new ConfigError(
      `DENO_KV_PATH "${raw}": a KV Connect URL must use https:// (http:// only for localhost)`,
    );
  }
  if (read(env, "DENO_KV_ACCESS_TOKEN") === null) {
    throw new ConfigError("DENO_KV_PATH is a KV Connect URL: set DENO_KV_ACCESS_TOKEN too");
  }
  return raw;
}

/**
 * Deno Deploy, which sets DENO_DEPLOYMENT_ID for every running revision: there a missing build
 * is not made at run time, and the default store is the one `Deno.openKv()` opens.
 */
export function isDeploy(env: Env): boolean {
  return read(env, "DENO_DEPLOYMENT_ID") !== null;
}

/**
 * The KV location: an explicit path, a KV Connect URL, Deno Deploy's managed store ("") or the
 * local default.
 */
function parseKvPath(env: Env, deploy: boolean): string {
  const raw = read(env, "DENO_KV_PATH");
  if (raw === ":memory:") return raw;
  if (raw !== null && /^https?:\/\//i.test(raw)) return parseKvConnectUrl(raw, env);
  if (raw === null && deploy) return "";
  const path = raw ?? DEFAULT_KV_PATH;
  prepareKvPath(path);
  return path;
}

function parseAdmin(env: Env): { adminUsername: string | null; adminPassword: string | null } {
  const adminUsername = read(env, "ADMIN_USERNAME");
  const adminPassword = env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null;
  if ((adminUsername === null) !== (adminPassword === null)) {
    throw new ConfigError("ADMIN_USERNAME and ADMIN_PASSWORD must be set together (or neither)");
  }
  if (adminUsername !== null && /\s/.test(adminUsername)) {
    throw new ConfigError("ADMIN_USERNAME must not contain spaces");
  }
  return { adminUsername, adminPassword };
}

function parseStripe(env: Env) {
  const stripeSecretKey = read(env, "STRIPE_SECRET_KEY");
  const stripePublishableKey = read(env, "STRIPE_PUBLISHABLE_KEY");
  const stripeWebhookSecret = read(env, "STRIPE_WEBHOOK_SECRET");
  if (stripeSecretKey !== null && !/^(sk|rk)_/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must start with "sk_" or "rk_"');
  }
  if (stripePublishableKey !== null && !stripePublishableKey.startsWith("pk_")) {
    throw new ConfigError('STRIPE_PUBLISHABLE_KEY must start with "pk_"');
  }
  if (stripeWebhookSecret !== null && !stripeWebhookSecret.startsWith("whsec_")) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must start with "whsec_"');
  }
  if ((stripeSecretKey === null) !== (stripePublishableKey === null)) {
    throw new ConfigError(
      "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together (or neither for test mode)",
    );
  }
  if (stripeWebhookSecret !== null && stripeSecretKey === null) {
    throw new ConfigError("STRIPE_WEBHOOK_SECRET needs STRIPE_SECRET_KEY");
  }
  return { stripeSecretKey, stripePublishableKey, stripeWebhookSecret };
}

function parseSmtpUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("SMTP_URL is not a valid URL (expected smtp://user:pass@host:port)");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps:// (got "${url.protocol}//")`);
  }
  if (!url.hostname) throw new ConfigError("SMTP_URL has no host name");
  return raw;
}

function parseMailFrom(raw: string | null): string {
  if (raw === null) return DEFAULT_MAIL_FROM;
  if (!/^[^<>@\s]+@[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+>$/.test(raw)) {
    throw new ConfigError(
      `MAIL_FROM must be an address or "Name <address>" (got "${raw}")`,
    );
  }
  return raw;
}

/** The site's public origin (`https://host[:port]`, no trailing slash), or null when unset. */
function parsePublicUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      "PUBLIC_URL is not a valid URL (expected e.g. https://contests.example.com)",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      `PUBLIC_URL must start with http:// or https:// (got "${url.protocol}//")`,
    );
  }
  if (url.username || url.password) {
    throw new ConfigError("PUBLIC_URL must not contain a user name or password");
  }
  const rest = url.pathname + url.search + url.hash;
  if (rest !== "/") {
    throw new ConfigError(`PUBLIC_URL must not have a path, query or fragment (got "${rest}")`);
  }
  return url.origin;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const KNOWN_PROVIDERS: Record<string, string> = { "accounts.google.com": "Google" };

function parseOidcIssuer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`OIDC_ISSUER is not a valid URL (got "${raw}")`);
  }
  const local = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !local) {
    throw new ConfigError("OIDC_ISSUER must start with https:// (http:// only on localhost)");
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError("OIDC_ISSUER must not have a query, fragment, user name or password");
  }
  return raw; // exactly as the provider names itself (Auth0 ends with "/", Google does not)
}

function parseAdminEmails(raw: string): string[] {
  const entries = raw.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean);
  const bad = entries.find((e) => !/^[^@\s]*@[^@\s.][^@\s]*$/.test(e));
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      `OIDC_ADMIN_EMAILS must list e-mail addresses or @domain entries, comma separated (got "${
        bad ?? raw
      }")`,
    );
  }
  return entries;
}

/** Admin sign-in through an OpenID Connect provider: all four variables, or none. */
function parseOidc(env: Env): OidcConfig | null {
  const names = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_ADMIN_EMAILS"];
  const values = names.map((name) => read(env, name));
  const providerName = read(env, "OIDC_PROVIDER_NAME");
  if (values.every((v) => v === null)) {
    if (providerName !== null) throw new ConfigError("OIDC_PROVIDER_NAME needs OIDC_ISSUER");
    return null;
  }
  const missing = names.filter((_, i) => values[i] === null);
  if (missing.length > 0) {
    throw new ConfigError(
      `${names.slice(0, -1).join(", ")} and ${names.at(-1)} must be set together (missing: ${
        missing.join(", ")
      })`,
    );
  }
  const [issuer, clientId, clientSecret, emails] = values as string[];
  const issuerUrl = parseOidcIssuer(issuer);
  const host = new URL(issuerUrl).hostname;
  return {
    issuer: issuerUrl,
    clientId,
    clientSecret,
    adminEmails: parseAdminEmails(emails),
    providerName: providerName ?? KNOWN_PROVIDERS[host] ?? host,
  };
}

function parseRequire2fa(raw: string | null): boolean {
  if (raw === null || raw === "0") return false;
  if (raw === "1") return true;
  throw new ConfigError(`ADMIN_REQUIRE_2FA must be 1 or 0 (got "${raw}")`);
}

/**
 * PAYOUT_ENCRYPTION_KEY: base64 of 32 random bytes, the key winners' payout details are sealed
 * with. Required with live Stripe keys: otherwise the key would sit in the store beside the data.
 */
function parsePayoutKey(raw: string | null, stripeKey: string | null): string | null {
  if (raw === null && stripeKey !== null && /^(sk|rk)_live_/.test(stripeKey)) {
    throw new ConfigError(
      "PAYOUT_ENCRYPTION_KEY is required with live Stripe keys (winners' payout details must " +
        "not be sealed with a key kept in the same store); set it to `openssl rand -base64 32`",
    );
  }
  if (raw === null) return null;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
  } catch {
    throw new ConfigError(
      "PAYOUT_ENCRYPTION_KEY must be base64 (e.g. from `openssl rand -base64 32`)",
    );
  }
  if (bytes.length !== 32) {
    throw new ConfigError(`PAYOUT_ENCRYPTION_KEY must be 32 bytes in base64 (got ${bytes.length})`);
  }
  return raw;
}

function parseHost(raw: string | null): string {
  if (raw === null) return DEFAULT_HOST;
  if (/[\s/]/.test(raw)) throw new ConfigError(`HOST must be a host name or IP (got "${raw}")`);
  return raw;
}

/**
 * Validates `env` (usually `Deno.env.toObject()`) into the app configuration.
 * Creates the KV folder when needed. Throws `ConfigError` on the first problem.
 */
export function loadConfig(env: Env): ServerConfig {
  const port = parsePort(read(env, "PORT"));
  const deploy = isDeploy(env);
  return {
    deploy,
    requestLog: parseRequestLog(read(env, "REQUEST_LOG"), deploy),
    port,
    liveWsPort: parseLiveWsPort(read(env, "LIVE_WS_PORT"), port),
    host: parseHost(read(env, "HOST")),
    demoData: parseDemoData(read(env, "DEMO_DATA")),
    ...parseAdmin(env),
    ...parseStripe(env),
    smtpUrl: parseSmtpUrl(read(env, "SMTP_URL")),
    mailFrom: parseMailFrom(read(env, "MAIL_FROM")),
    publicUrl: parsePublicUrl(read(env, "PUBLIC_URL")),
    payoutKey: parsePayoutKey(read(env, "PAYOUT_ENCRYPTION_KEY"), read(env, "STRIPE_SECRET_KEY")),
    oidc: parseOidc(env),
    adminRequire2fa: parseRequire2fa(read(env, "ADMIN_REQUIRE_2FA")),
    ...parseIntentLimit(read(env, "PAYMENT_INTENTS_PER_10_MIN")),
    ...parseKv(env, deploy),
    ...parseLiveMaxSockets(read(env, "LIVE_MAX_SOCKETS")),
    ...parseVapid(env),
    ...parsePushAllowLocal(read(env, "PUSH_ALLOW_LOCAL"), deploy),
  };
}

/**
 * PUSH_ALLOW_LOCAL: 1 admits push endpoints on this machine's loopback (a local push service for
 * tests and benches); 0 or unset admits only the browser vendors' push services. Never on Deno
 * Deploy, where nothing local is a push service.
 */
function parsePushAllowLocal(raw: string | null, deploy: boolean): { pushAllowLocal?: true } {
  if (raw === null || raw === "0") return {};
  if (raw !== "1") throw new ConfigError(`PUSH_ALLOW_LOCAL must be 1 or 0 (got "${raw}")`);
  if (deploy) {
    throw new ConfigError("PUSH_ALLOW_LOCAL=1 is for tests and benches, not for Deno Deploy");
  }
  return { pushAllowLocal: true };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (set both or neither: unset, a pair is generated once and
 * kept in the store) and VAPID_SUBJECT (a mailto: or https: URL the push services may contact).
 * Nothing set: no `vapid` (the store's pair is used).
 */
function parseVapid(env: Env): { vapid?: VapidConfig } {
  const publicKey = read(env, "VAPID_PUBLIC_KEY");
  const privateKey = read(env, "VAPID_PRIVATE_KEY");
  const subject = read(env, "VAPID_SUBJECT");
  if (publicKey === null && privateKey === null) {
    if (subject !== null && !/^(mailto:|https:\/\/)/.test(subject)) {
      throw new ConfigError("VAPID_SUBJECT must be a mailto: or https:// URL");
    }
    return {};
  }
  if (publicKey === null || privateKey === null) {
    throw new ConfigError("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
  }
  const b64url = /^[A-Za-z0-9_-]+$/;
  if (!b64url.test(publicKey) || decodedLength(publicKey) !== 65) {
    throw new ConfigError("VAPID_PUBLIC_KEY must be a P-256 public key, 65 bytes in base64url");
  }
  if (!b64url.test(privateKey) || decodedLength(privateKey) !== 32) {
    throw new ConfigError("VAPID_PRIVATE_KEY must be a P-256 private key, 32 bytes in base64url");
  }
  if (subject !== null && !/^(mailto:|https:\/\/)/.test(subject)) {
    throw new ConfigError("VAPID_SUBJECT must be a mailto: or https:// URL");
  }
  return { vapid: { publicKey, privateKey, subject: subject ?? DEFAULT_VAPID_SUBJECT } };
}

/** The VAPID subject when none is set. */
export const DEFAULT_VAPID_SUBJECT = "mailto:no-reply@localhost";

/** Bytes a base64url text (no padding) decodes to. */
function decodedLength(text: string): number {
  return Math.floor(text.length * 3 / 4);
}

function parseRequestLog(raw: string | null, deploy: boolean): boolean {
  if (raw === null) return deploy;
  if (raw === "1") return true;
  if (raw === "0") return false;
  throw new ConfigError(`REQUEST_LOG must be 1 or 0 (got "${raw}")`);
}

/** The KV location, and whether its `kv.watch` sees other processes' writes (remote stores). */
function parseKv(env: Env, deploy: boolean): { kvPath: string; kvWatchNative: boolean } {
  const kvPath = parseKvPath(env, deploy);
  return { kvPath, kvWatchNative: kvPath === "" || /^https?:\/\//i.test(kvPath) };
}

/** Start-up warnings about a configuration that works but is unsafe in production. */
export function configWarnings(config: AppConfig): string[] {
  if (config.publicUrl !== null || config.stripeSecretKey === null) return [];
  return [
    "Warning: PUBLIC_URL is not set, so links in e-mails point at this server's own address " +
    "(http://localhost:PORT); " +
    "set PUBLIC_URL (e.g. https://contests.example.com) in production.",
  ];
}

/** Said once at start: whether real money moves. */
export const TEST_MODE_NOTICE = "Payments: TEST MODE: no card is charged; the test card " +
  "4242 4242 4242 4242 pays. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments.";

/** The lines printed at start besides warnings (test-mode payments). */
export function startNotices(config: AppConfig): string[] {
  return config.stripeSecretKey === null ? [TEST_MODE_NOTICE] : [];
}

/**
 * The origin of links sent outside the page (e-mails): PUBLIC_URL, else the origin the server was
 * started on (http://localhost:PORT). Never a request's Host header or absolute request line:
 * anyone can send those, and a link in an e-mail to someone else must not point at their site.
 */
export function linkOrigin(config: AppConfig & { host?: string }): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host ?? "";
  const local = ["", "0.0.0.0", "127.0.0.1", "::", "::1", "localhost"].includes(host);
  const name = local ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const port = config.port && config.port !== 80 ? `:${config.port}` : "";
  return `http://${name}${port}`;
}

/**
 * How many isolates `npm start` serves with (`deno serve --parallel`): DENO_JOBS, else
 * WEB_CONCURRENCY, else one per core. One for a `:memory:` store, which isolates cannot share.
 */
export function loadServeJobs(env: Env, kvPath: string, cores = navigator.hardwareConcurrency) {
  let jobs = Math.max(1, cores);
  for (const name of ["WEB_CONCURRENCY", "DENO_JOBS"]) {
    const raw = read(env, name);
    if (raw === null) continue;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      throw new ConfigError(`${name} must be a whole number of isolates, 1 or more (got "${raw}")`);
    }
    jobs = Number(raw);
  }
  return kvPath === ":memory:" ? 1 : jobs;
}
