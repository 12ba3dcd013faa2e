import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminGameEvents from "../../../../islands/AdminGameEvents.tsx";
import { routeId } from "../../../../lib/ui/admin/route_id.ts";

/** Game events; an id that is not a number shows 'Competition Not Found' like a missing one. */
export default function GameEventsPage({ params }: PageProps) {
  return (
    <>
      <Head>
        <title>Game Events · Admin</title>
      </Head>
      <AdminGameEvents id={routeId(params.id) ?? 0} />
    </>
  );
}
