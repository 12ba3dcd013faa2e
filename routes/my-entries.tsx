import { Head } from "$fresh/runtime.ts";
import MyEntries from "@/islands/MyEntries.tsx";

/** My entries: the entries this browser made (kept in localStorage) and find-by-e-mail. */
export default function MyEntriesPage() {
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <Head>
        <title>My entries · Fantasy Contests</title>
      </Head>
      <h1 className="mb-6 text-2xl font-extrabold tracking-tight sm:text-3xl">My entries</h1>
      <MyEntries />
    </main>
  );
}
