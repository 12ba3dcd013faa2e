import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminCompetitionForm from "@/islands/AdminCompetitionForm.tsx";
import { ActivityTable } from "@/components/admin/ActivityTable.tsx";
import { pageId } from "@/lib/http/route_params.ts";
import { type AuditEntry, listAudit } from "@/lib/db/audit.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import type { State } from "@/lib/services.ts";

interface Data {
  id: number;
  /** The competition's activity log, newest first (null: no such competition). */
  activity: AuditEntry[] | null;
}

/** Most records shown under the form (the Activity screen has them all). */
const SHOWN = 50;

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const id = pageId(ctx.params.id);
    if (id === null || !await getCompetition(kv, id)) {
      return ctx.render({ id: id ?? 0, activity: null }, { status: 404 });
    }
    return ctx.render({ id, activity: await listAudit(kv, { competitionId: id, limit: SHOWN }) });
  },
};

/** The competition form, and below it what admins (and the automatic status) did to it. */
export default function EditCompetitionPage({ data }: PageProps<Data>) {
  return (
    <>
      <Head>
        <title>Edit Competition · Admin</title>
      </Head>
      <AdminCompetitionForm id={data.id} />
      {data.activity && (
        <section
          className="mx-auto mt-10 flex max-w-4xl flex-col gap-3"
          aria-labelledby="activity-heading"
        >
          <div className="flex flex-wrap items-end justify-between gap-2">
            <h2 id="activity-heading" className="text-lg font-semibold">Activity</h2>
            <a
              className="text-sm underline underline-offset-2"
              href={`/admin/activity?competitionId=${data.id}`}
            >
              All activity of this competition
            </a>
          </div>
          <ActivityTable entries={data.activity} caption="Activity of this competition" />
        </section>
      )}
    </>
  );
}
