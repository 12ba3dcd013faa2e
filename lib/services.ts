/**
 * The process-wide services (KV, payments, mailer, configuration). `main.ts` sets them at
 * start; tests set their own (in-memory KV, test payments) before building a handler.
 */
import type { PaymentProvider } from "./payments/provider.ts";
import type { Mailer } from "./email/mailer.ts";
import type { OidcConfig } from "./auth/oidc.ts";

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
  /** Admin sign-in through an OpenID Connect provider; null or unset: password logins only. */
  oidc?: OidcConfig | null;
  /** Password logins need a TOTP code (admins without one are sent to set it up). */
  adminRequire2fa?: boolean;
}

export interface Services {
  kv: Deno.Kv;
  payments: PaymentProvider;
  mailer: Mailer;
  config: AppConfig;
}

let current: Services | null = null;

/** Installs the services used by every route of this process. */
export function setServices(next: Services): void {
  current = next;
}

/** The current services; throws when the app was not started through `setServices`. */
export function services(): Services {
  if (!current) throw new Error("services not initialised: call setServices() first");
  return current;
}
