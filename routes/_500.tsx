import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import { Button } from "../components/ui/Button.tsx";

/** Shown when rendering a page throws (status 500). The error itself is logged, not shown. */
export default function ErrorPage(_props: PageProps) {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>Something Went Wrong · Fantasy Contests</title>
      </Head>
      <h1 className="text-3xl font-bold tracking-tight">Something Went Wrong</h1>
      <p className="text-muted-foreground">
        An unexpected error occurred. Please try again in a moment.
      </p>
      <Button href="/" size="lg">Return Home</Button>
    </main>
  );
}
