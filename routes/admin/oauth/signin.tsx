import type { Handlers, PageProps } from "$fresh/server.ts";
import { SignInNotice } from "../../../components/admin/SignInNotice.tsx";
import { beginSignIn, callbackUrl } from "../../../lib/auth/oidc.ts";
import { isHttps } from "../../../lib/auth/sessions.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers<string> = {
  /** Sends the browser to the identity provider (404 when none is configured). */
  async GET(req, ctx) {
    const { kv, config } = services();
    if (!config.oidc) return ctx.renderNotFound();
    const redirectUri = callbackUrl(config.publicUrl, ctx.url);
    try {
      const { location, cookie } = await beginSignIn(kv, config.oidc, redirectUri, isHttps(req));
      return new Response(null, { status: 303, headers: { location, "set-cookie": cookie } });
    } catch (err) {
      console.error(`Identity provider ${config.oidc.issuer} unavailable:`, err);
      return ctx.render(config.oidc.providerName, { status: 502 });
    }
  },
};

export default function ProviderUnavailable({ data }: PageProps<string>) {
  return (
    <SignInNotice
      title="Sign-in Unavailable"
      message={`${data} could not be reached. Please try again in a moment.`}
      next={{ href: "/admin/login", label: "Back to login" }}
    />
  );
}
