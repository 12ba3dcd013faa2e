import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminManagePlayers from "../../../../islands/AdminManagePlayers.tsx";
import { routeId } from "../../../../lib/ui/admin/route_id.ts";

export const handler: Handlers<number> = {
  GET(_req, ctx) {
    const id = routeId(ctx.params.id);
    return id ? ctx.render(id) : ctx.renderNotFound();
  },
};

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
