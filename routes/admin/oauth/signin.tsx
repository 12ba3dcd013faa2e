import type { Handlers, PageProps } from "$fresh/server.ts";
import { SignInNotice } from "@/components/admin/SignInNotice.tsx";
import { clientIp } from "@/lib/auth/guard.ts";
import { beginSignIn, callbackUrl, SIGNIN_LIMIT } from "@/lib/auth/oidc.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import type { State } from "@/lib/services.ts";

type Problem = { status: 429 | 502; provider: string };

export const handler: Handlers<Problem, State> = {
  /**
   * Sends the browser to the identity provider (404 when none is configured). Each start stores a
   * flow in KV, so starts are rate limited per address.
   */
  async GET(req, ctx) {
    const { kv, config, oidcMetadata } = ctx.state.services;
    if (!config.oidc) return ctx.renderNotFound();
    const provider = config.oidc.providerName;
    const client = clientIp(ctx) ?? "unknown";
    const limit = await hitRateLimit(kv, { ...SIGNIN_LIMIT, client });
    if (!limit.allowed) {
      const res = await ctx.render({ status: 429, provider }, { status: 429 });
      res.headers.set("retry-after", String(limit.retryAfterSeconds));
      return res;
    }
    const redirectUri = callbackUrl(config.publicUrl, ctx.url);
    try {
      const { location, cookie } = await beginSignIn(
        kv,
        oidcMetadata,
        config.oidc,
        redirectUri,
        isHttps(req),
      );
      return new Response(null, { status: 303, headers: { location, "set-cookie": cookie } });
    } catch (err) {
      console.error(`Identity provider ${config.oidc.issuer} unavailable:`, err);
      return ctx.render({ status: 502, provider }, { status: 502 });
    }
  },
};

export default function SignInUnavailable({ data }: PageProps<Problem>) {
  return (
    <SignInNotice
      title="Sign-in Unavailable"
      message={data.status === 429
        ? "Too many sign-in attempts from this address. Please wait a few minutes and try again."
        : `${data.provider} could not be reached. Please try again in a moment.`}
      next={{ href: "/admin/login", label: "Back to login" }}
    />
  );
}
