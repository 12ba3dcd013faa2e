import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminCompetitionForm from "../../../../islands/AdminCompetitionForm.tsx";
import { idPageHandler } from "@/lib/http/route_params.ts";

export const handler = idPageHandler;

export default function EditCompetitionPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Edit Competition · Admin</title>
      </Head>
      <AdminCompetitionForm id={data} />
    </>
  );
}
