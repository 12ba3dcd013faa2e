import { Head } from "$fresh/runtime.ts";
import AdminMatchList from "@/islands/AdminMatchList.tsx";

export default function MatchesPage() {
  return (
    <>
      <Head>
        <title>Matches · Admin</title>
      </Head>
      <AdminMatchList />
    </>
  );
}
