import type { Handlers, PageProps } from "$fresh/server.ts";
import { SignInNotice } from "@/components/admin/SignInNotice.tsx";
import { clientIp } from "@/lib/auth/guard.ts";
import { clearFlowCookie, OidcSignInError, signInWithProvider } from "@/lib/auth/oidc.ts";
import { endSession, isHttps, startSession } from "@/lib/auth/sessions.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
import { statusOf } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

type Outcome = { signedInAs: string } | { refused: string };

export const handler: Handlers<Outcome, State> = {
  /**
   * The provider's redirect back: on success the admin session cookie (the same as a password
   * login's) and a page moving on to the dashboard; otherwise the reason, and no session.
   */
  async GET(req, ctx) {
    const { kv, config, oidcMetadata } = ctx.state.services;
    if (!config.oidc) return ctx.renderNotFound();
    const secure = isHttps(req);
    let res: Response;
    try {
      const admin = await signInWithProvider(kv, oidcMetadata, config.oidc, req, clientIp(ctx));
      await endSession(kv, req);
      const cookie = await startSession(kv, admin, secure);
      res = await ctx.render({ signedInAs: admin.username });
      res.headers.append("set-cookie", cookie);
    } catch (err) {
      if (!(err instanceof OidcSignInError || err instanceof TooManyRequestsError)) throw err;
      const status = err instanceof OidcSignInError ? err.status : statusOf(err);
      res = await ctx.render({ refused: err.message }, { status });
    }
    res.headers.append("set-cookie", clearFlowCookie(secure));
    return res;
  },
};

export default function SignInCallback({ data }: PageProps<Outcome>) {
  if ("refused" in data) {
    return (
      <SignInNotice
        title="Sign-in Refused"
        message={data.refused}
        next={{ href: "/admin/login", label: "Back to login" }}
      />
    );
  }
  return (
    <SignInNotice
      title="Signed In"
      message={`Signed in as ${data.signedInAs}.`}
      next={{ href: "/admin/dashboard", label: "Continue to the dashboard" }}
      redirect
    />
  );
}
