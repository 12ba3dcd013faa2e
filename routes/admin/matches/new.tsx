import { Head } from "$fresh/runtime.ts";
import AdminMatchForm from "@/islands/AdminMatchForm.tsx";

export default function NewMatchPage() {
  return (
    <>
      <Head>
        <title>New Match · Admin</title>
      </Head>
      <AdminMatchForm />
    </>
  );
}
