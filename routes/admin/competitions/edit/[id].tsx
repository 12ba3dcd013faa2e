import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminCompetitionForm from "@/islands/AdminCompetitionForm.tsx";
import { recordPageHandler } from "@/lib/http/route_params.ts";
import { getCompetition } from "@/lib/db/competitions.ts";

export const handler = recordPageHandler(getCompetition);

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
