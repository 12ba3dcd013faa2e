import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminManagePlayers from "@/islands/AdminManagePlayers.tsx";
import { recordPageHandler } from "@/lib/http/route_params.ts";
import { getCompetition } from "@/lib/db/competitions.ts";

export const handler = recordPageHandler(getCompetition);

export default function ManagePlayersPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Manage Players · Admin</title>
      </Head>
      <AdminManagePlayers id={data} />
    </>
  );
}
