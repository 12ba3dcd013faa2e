import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminPrizeEditor from "@/islands/AdminPrizeEditor.tsx";
import { recordPageHandler } from "@/lib/http/route_params.ts";
import { getCompetition } from "@/lib/db/competitions.ts";

export const handler = recordPageHandler(getCompetition);

export default function PrizesPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Prize Structure · Admin</title>
      </Head>
      <AdminPrizeEditor id={data} />
    </>
  );
}
