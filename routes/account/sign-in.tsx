import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { accountCookie } from "@/lib/api/account.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { redeemSignInLink } from "@/lib/db/persons.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import type { State } from "@/lib/services.ts";

interface Data {
  token: string;
  error: string | null;
}

export const handler: Handlers<Data, State> = {
  /** Shows one button: opening the link alone signs nobody in (mail scanners open links). */
  GET(_req, ctx) {
    return ctx.render({ token: ctx.url.searchParams.get("token") ?? "", error: null });
  },
  async POST(req, ctx) {
    if (isCrossOriginRequest(req)) return new Response("Forbidden", { status: 403 });
    const token = String((await req.formData()).get("token") ?? "");
    try {
      const { sessionId } = await redeemSignInLink(ctx.state.services.kv, token);
      return new Response(null, {
        status: 303,
        headers: { location: "/account", "set-cookie": accountCookie(sessionId, isHttps(req)) },
      });
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return ctx.render({ token: "", error: err.message }, { status: 409 });
    }
  },
};

export default function SignInPage({ data }: PageProps<Data>) {
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>Sign in · Fantasy Contests</title>
      </Head>
      <h1 className="text-2xl font-bold tracking-tight">Sign in to My account</h1>
      {data.error
        ? (
          <p role="alert" className="text-destructive">
            {data.error} <a className="underline" href="/account">My account</a>
          </p>
        )
        : (
          <form method="post" action="/account/sign-in">
            <input type="hidden" name="token" value={data.token} />
            <button
              type="submit"
              className="inline-flex h-11 items-center rounded-md bg-primary px-5 font-medium text-primary-foreground hover:bg-primary-hover"
            >
              Sign in
            </button>
          </form>
        )}
    </main>
  );
}
