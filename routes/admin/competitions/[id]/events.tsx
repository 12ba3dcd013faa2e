import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import AdminGameEvents from "@/islands/AdminGameEvents.tsx";
import { recordPageHandler } from "@/lib/http/route_params.ts";

export const handler = recordPageHandler(getCompetition);

/** Game events; an id that is not a number shows 'Competition Not Found' like a missing one. */
export default function GameEventsPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Game Events · Admin</title>
      </Head>
      <AdminGameEvents id={data} />
    </>
  );
}
