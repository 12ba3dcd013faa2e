import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminMatchForm from "@/islands/AdminMatchForm.tsx";
import AdminContestTemplates from "@/islands/AdminContestTemplates.tsx";
import { recordPageHandler } from "@/lib/http/route_params.ts";
import { getMatch } from "@/lib/db/matches.ts";

export const handler = recordPageHandler(getMatch);

export default function EditMatchPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Edit Match · Admin</title>
      </Head>
      <AdminMatchForm id={data} />
      <AdminContestTemplates matchId={data} />
    </>
  );
}
