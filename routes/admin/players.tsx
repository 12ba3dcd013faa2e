import { Head } from "$fresh/runtime.ts";
import AdminPlayers from "@/islands/AdminPlayers.tsx";

/** Players: every player of every club, searchable, and a form to add one to any club. */
export default function PlayersPage() {
  return (
    <>
      <Head>
        <title>Players · Admin</title>
      </Head>
      <AdminPlayers />
    </>
  );
}
