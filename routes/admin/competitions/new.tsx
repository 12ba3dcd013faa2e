import { Head } from "$fresh/runtime.ts";
import AdminCompetitionForm from "@/islands/AdminCompetitionForm.tsx";

export default function NewCompetitionPage() {
  return (
    <>
      <Head>
        <title>New Competition · Admin</title>
      </Head>
      <AdminCompetitionForm />
    </>
  );
}
