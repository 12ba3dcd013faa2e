import { Head } from "$fresh/runtime.ts";
import AdminFeed from "@/islands/AdminFeed.tsx";

/** Live feed: providers and their secrets, the last events received and the refused ones. */
export default function FeedPage() {
  return (
    <>
      <Head>
        <title>Live Feed · Admin</title>
      </Head>
      <AdminFeed />
    </>
  );
}
