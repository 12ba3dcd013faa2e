import { Head } from "$fresh/runtime.ts";
import { Button } from "@/components/ui/Button.tsx";

/**
 * What the service worker (static/sw.js) shows for a page it cannot fetch and has not kept:
 * cached at install, so it is there on the first visit without a connection.
 */
export default function OfflinePage() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>You're Offline · Fantasy Contests</title>
      </Head>
      <h1 className="text-3xl font-bold tracking-tight">You're offline</h1>
      <p className="text-muted-foreground">
        This page needs a connection. Leaderboards you opened recently still show their last
        standings; the live updates resume when you are back online.
      </p>
      <Button href="/" size="lg">Try Again</Button>
    </main>
  );
}
