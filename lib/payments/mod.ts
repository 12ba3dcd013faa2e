/** Picks the payment provider from the configuration: Stripe with a secret key, else test mode. */
import type { AppConfig } from "@/lib/config.ts";
import type { PaymentProvider } from "./provider.ts";
import { StripePaymentProvider } from "./stripe_provider.ts";
import { TestPaymentProvider } from "./test_provider.ts";

export { StripePaymentProvider } from "./stripe_provider.ts";
export { TestPaymentProvider } from "./test_provider.ts";

/** Where the Stripe client sends its requests (tests point it at a local imitation). */
export interface PaymentProviderOptions {
  stripeHost?: string;
  stripePort?: number;
  stripeProtocol?: "http" | "https";
}

/** The Stripe provider when STRIPE_SECRET_KEY is set, otherwise the offline test provider. */
export function createPaymentProvider(
  config: AppConfig,
  kv: Deno.Kv,
  opts: PaymentProviderOptions = {},
): PaymentProvider {
  if (!config.stripeSecretKey) return new TestPaymentProvider(kv);
  return new StripePaymentProvider({
    secretKey: config.stripeSecretKey,
    publishableKey: config.stripePublishableKey,
    webhookSecret: config.stripeWebhookSecret,
    host: opts.stripeHost,
    port: opts.stripePort,
    protocol: opts.stripeProtocol,
  });
}
