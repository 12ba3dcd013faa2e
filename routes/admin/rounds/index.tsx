import { Head } from "$fresh/runtime.ts";
import AdminRounds from "@/islands/AdminRounds.tsx";

export default function RoundsPage() {
  return (
    <>
      <Head>
        <title>Rounds · Admin</title>
      </Head>
      <AdminRounds />
    </>
  );
}
