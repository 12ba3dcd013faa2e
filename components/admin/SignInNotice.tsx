import { Head } from "$fresh/runtime.ts";
import { Button } from "@/components/ui/Button.tsx";

export interface SignInNoticeProps {
  title: string;
  message: string;
  /** Where to go next; with `redirect`, the browser goes there at once. */
  next: { href: string; label: string };
  redirect?: boolean;
}

/**
 * The page of a sign-in through the identity provider: the refusal and its reason, or "Signed in"
 * moving on to the dashboard. The move is a same-site navigation started by this page (a meta
 * refresh: no inline script under the CSP), so the SameSite=Strict session cookie goes with it.
 */
export function SignInNotice({ title, message, next, redirect }: SignInNoticeProps) {
  return (
    <div className="flex min-h-[80vh] items-center justify-center px-4 py-12">
      <Head>
        <title>{`${title} · Fantasy Contests`}</title>
        {redirect && <meta httpEquiv="refresh" content={`0; url=${next.href}`} />}
      </Head>
      <section
        className="flex w-full max-w-sm flex-col items-center gap-4 rounded-xl border border-border bg-card p-6 text-center shadow-sm"
        role={redirect ? "status" : "alert"}
      >
        <img src="/logo.svg" alt="" width="48" height="48" className="h-12 w-12" />
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-sm text-muted-foreground">{message}</p>
        <Button href={next.href} variant={redirect ? "default" : "outline"}>{next.label}</Button>
      </section>
    </div>
  );
}
