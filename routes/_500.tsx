import { Head } from "$fresh/runtime.ts";
import type { ErrorHandler, PageProps } from "$fresh/server.ts";
import { Button } from "@/components/ui/Button.tsx";
import { errorInit } from "@/lib/http/errors.ts";

/**
 * A page that throws answers with the status of the one error mapping (`errorInit`, as the API
 * does): a missing record is the 404 page, other domain errors this page with their 4xx status,
 * anything else 500. The error itself is logged when it is a 5xx, never shown.
 */
export const handler: ErrorHandler = async (_req, ctx) => {
  const { status, headers } = errorInit(ctx.error);
  if (status !== 404) return await ctx.render(status, { status, headers });
  const res = await ctx.renderNotFound();
  headers.forEach((value, name) => res.headers.set(name, value));
  return res;
};

/** What a visitor reads for each error status; no internals. */
const TEXTS: Record<number, [title: string, text: string]> = {
  400: ["Invalid Request", "The address or the details sent are not valid. Please check them."],
  401: ["Login Required", "Please log in to continue."],
  402: ["Payment Not Completed", "The payment has not been completed. Please try again."],
  403: ["Access Denied", "You are not allowed to open this page."],
  409: [
    "Not Possible Right Now",
    "This is not possible in the current state, for example once a contest has closed.",
  ],
  413: ["Request Too Large", "The request is too large. Please send less at once."],
  429: ["Too Many Requests", "Too many attempts. Please wait a moment and try again."],
};
const FALLBACK: [string, string] = [
  "Something Went Wrong",
  "An unexpected error occurred. Please try again in a moment.",
];

/** Shown when a page fails: its status and a message fit for visitors (500 unless mapped). */
export default function ErrorPage({ data }: PageProps<number | undefined>) {
  const status = typeof data === "number" ? data : 500;
  const [title, text] = TEXTS[status] ?? FALLBACK;
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>{title} · Fantasy Contests</title>
      </Head>
      {status < 500 && (
        <p className="text-6xl font-extrabold tracking-tight text-primary">{status}</p>
      )}
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">{text}</p>
      <Button href="/" size="lg">Return Home</Button>
    </main>
  );
}
