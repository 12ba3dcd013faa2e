import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import {
  EntriesPanel,
  PlayPanel,
  SessionPanel,
  SignInPanel,
} from "@/components/account/AccountPanels.tsx";
import {
  accountCookie,
  accountOf,
  type AccountView,
  accountView,
  requestSignInLink,
  saveLimits,
  SIGN_IN_SENT,
} from "@/lib/api/account.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { isHttps } from "@/lib/auth/sessions.ts";
import { linkOrigin } from "@/lib/config.ts";
import { endAccountSession, endEverySession, excludeSelf, startBreak } from "@/lib/db/persons.ts";
import { DomainError } from "@/lib/domain/errors.ts";
import {
  breakSchema,
  exclusionSchema,
  limitsSchema,
  signInLinkSchema,
} from "@/lib/domain/schemas/account.ts";
import { statusOf } from "@/lib/http/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import { parseWith } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

interface Data {
  view: AccountView | null;
  notice: string | null;
  error: string | null;
  email?: string;
}

const NOTICES: Record<string, string> = {
  link: SIGN_IN_SENT,
  limits: "Your limits are saved.",
  break: "Your break has started.",
  exclude: "You are excluded from play.",
  "signed-out": "You are signed out.",
};

const see = (location: string) => new Response(null, { status: 303, headers: { location } });

export const handler: Handlers<Data, State> = {
  async GET(req, ctx) {
    const who = await accountOf(ctx.state.services.kv, req);
    const view = who && await accountView(ctx.state.services, who);
    const notice = NOTICES[ctx.url.searchParams.get("done") ?? ""] ?? null;
    const res = await ctx.render({ view, notice, error: null });
    res.headers.set("cache-control", "no-store");
    return res;
  },
  /** The page's forms; a refusal renders the page again with its message and status. */
  async POST(req, ctx) {
    if (isCrossOriginRequest(req)) return new Response("Forbidden", { status: 403 });
    const services = ctx.state.services;
    const form = Object.fromEntries(await req.formData());
    const who = await accountOf(services.kv, req);
    try {
      const action = String(form.action ?? "");
      if (action === "link") {
        const { email } = parseWith(signInLinkSchema, form);
        await requestSignInLink(
          services,
          email,
          clientIp(ctx) ?? "unknown",
          linkOrigin(services.config),
        );
        return see("/account?done=link");
      }
      if (!who) return see("/account");
      const secure = isHttps(req);
      if (action === "sign-out" || action === "sign-out-everywhere") {
        if (action === "sign-out") await endAccountSession(services.kv, who.sessionId);
        else await endEverySession(services.kv, who.person);
        const res = see("/account?done=signed-out");
        res.headers.set("set-cookie", accountCookie("", secure));
        return res;
      }
      if (action === "limits") {
        await saveLimits(services.kv, who.person, parseWith(limitsSchema, form));
      } else if (action === "break") {
        await startBreak(services.kv, who.person, parseWith(breakSchema, form).hours);
      } else if (action === "exclude") {
        await excludeSelf(services.kv, who.person, parseWith(exclusionSchema, form).period);
      } else return new Response("Unknown action", { status: 400 });
      return see(`/account?done=${action}`);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const view = who && await accountView(services, who);
      const email = typeof form.email === "string" ? form.email : undefined;
      return ctx.render({ view, notice: null, error: err.message, email }, {
        status: statusOf(err),
      });
    }
  },
};

export default function AccountPage({ data }: PageProps<Data>) {
  const { view, notice, error } = data;
  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <Head>
        <title>My account · Fantasy Contests</title>
      </Head>
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">My account</h1>
      {notice && <p role="status" className="rounded-md bg-muted px-4 py-3 text-sm">{notice}</p>}
      {error && (
        <p role="alert" className="rounded-md bg-destructive/10 px-4 py-3 text-sm text-destructive">
          {error}
        </p>
      )}
      {view
        ? (
          <>
            <SessionPanel view={view} />
            <EntriesPanel view={view} />
            <PlayPanel view={view} />
          </>
        )
        : <SignInPanel email={data.email} />}
      <p className="text-sm text-muted-foreground">
        Playing for money should stay fun.{" "}
        <a className="underline" href="/responsible-play">Responsible play</a>
      </p>
    </main>
  );
}
