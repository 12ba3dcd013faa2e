import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { PRIVATE_HEADERS } from "@/lib/http/private.ts";

export const handler: Handlers = {
  /** The page only: opening it changes nothing; never cached, its link's token never referred. */
  GET: (_req, ctx) => ctx.render(undefined, { headers: PRIVATE_HEADERS }),
};

/**
 * The page an e-mail's unsubscribe link opens: one button that stops the e-mails (a link alone
 * never does, since mail scanners open links); mail apps use the one-click POST instead.
 */
export default function UnsubscribePage({ url }: PageProps) {
  const token = url.searchParams.get("t") ?? "";
  const done = url.searchParams.get("done") === "1";
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>Unsubscribe · Fantasy Contests</title>
      </Head>
      <h1 className="text-2xl font-bold tracking-tight">
        {done ? "You are unsubscribed" : "Stop these e-mails?"}
      </h1>
      {done
        ? (
          <p className="text-muted-foreground" data-unsubscribed="">
            You will get no more of these e-mails for this entry. You can turn them on again from My
            entries.
          </p>
        )
        : (
          <form
            method="post"
            action={`/api/notifications/unsubscribe?t=${encodeURIComponent(token)}&from=page`}
          >
            <p className="mb-4 text-muted-foreground">
              The deadline reminder and result e-mails of this entry stop.
            </p>
            <button
              type="submit"
              className="inline-flex h-11 items-center rounded-md bg-primary px-5 font-medium text-primary-foreground hover:bg-primary-hover"
            >
              Unsubscribe
            </button>
          </form>
        )}
    </main>
  );
}
