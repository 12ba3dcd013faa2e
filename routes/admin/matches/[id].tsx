import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminMatchForm from "../../../islands/AdminMatchForm.tsx";
import { routeId } from "../../../lib/ui/admin/route_id.ts";

export const handler: Handlers<number> = {
  GET(_req, ctx) {
    const id = routeId(ctx.params.id);
    return id ? ctx.render(id) : ctx.renderNotFound();
  },
};

export default function EditMatchPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Edit Match · Admin</title>
      </Head>
      <AdminMatchForm id={data} />
    </>
  );
}
