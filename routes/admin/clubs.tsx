import { Head } from "$fresh/runtime.ts";
import AdminClubs from "@/islands/AdminClubs.tsx";

/** Clubs: list, create, edit and delete the real teams. */
export default function ClubsPage() {
  return (
    <>
      <Head>
        <title>Clubs · Admin</title>
      </Head>
      <AdminClubs />
    </>
  );
}
