import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminGameEvents from "../../../../islands/AdminGameEvents.tsx";
import { pageId } from "@/lib/http/route_params.ts";

/** Game events; an id that is not a number shows 'Competition Not Found' like a missing one. */
export default function GameEventsPage({ params }: PageProps) {
  return (
    <>
      <Head>
        <title>Game Events · Admin</title>
      </Head>
      <AdminGameEvents id={pageId(params.id) ?? 0} />
    </>
  );
}
