import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminCompetitionForm from "../../../../islands/AdminCompetitionForm.tsx";
import { routeId } from "../../../../lib/ui/admin/route_id.ts";

export const handler: Handlers<number> = {
  GET(_req, ctx) {
    const id = routeId(ctx.params.id);
    return id ? ctx.render(id) : ctx.renderNotFound();
  },
};

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
