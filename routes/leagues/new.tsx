import type { PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import LeagueCreate from "@/islands/LeagueCreate.tsx";

/**
 * Create a friends' league for one of this browser's entries (`?team=FFT-…`, from the
 * confirmation page, My entries or an own leaderboard row). The island checks, in the browser,
 * that this browser holds the entry's edit link.
 */
export default function NewLeaguePage({ url }: PageProps) {
  const team = url.searchParams.get("team") ?? "";
  return (
    <main className="mx-auto grid max-w-xl gap-6 px-4 py-8">
      <Head>
        <title>Create a league · Fantasy Contests</title>
        <meta name="robots" content="noindex" />
      </Head>
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold">Create a league</h1>
        <p className="text-sm text-muted-foreground">
          Play against the people you know: a league ranks its members by their contest points. No
          money moves in a league.
        </p>
      </header>
      <LeagueCreate teamId={/^[\w-]{1,40}$/.test(team) ? team : ""} />
    </main>
  );
}
