import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminManagePlayers from "../../../../islands/AdminManagePlayers.tsx";
import { idPageHandler } from "@/lib/http/route_params.ts";

export const handler = idPageHandler;

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
