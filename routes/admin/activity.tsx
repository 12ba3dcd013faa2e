import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { ActivityTable } from "@/components/admin/ActivityTable.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Select } from "@/components/ui/Select.tsx";
import {
  AUDIT_LIMIT,
  auditChoices,
  type AuditEntry,
  type AuditFilter,
  listAudit,
  parseAuditFilter,
} from "@/lib/db/audit.ts";
import { listCompetitions } from "@/lib/db/competitions.ts";
import type { State } from "@/lib/services.ts";

interface Data {
  entries: AuditEntry[];
  filter: AuditFilter;
  competitions: { id: number; name: string }[];
  admins: string[];
  actions: string[];
  query: string;
}

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const filter = parseAuditFilter(ctx.url.searchParams);
    const [entries, competitions, choices] = await Promise.all([
      listAudit(kv, filter),
      listCompetitions(kv),
      auditChoices(kv),
    ]);
    return ctx.render({
      entries,
      filter,
      competitions: competitions.map((c) => ({ id: c.id, name: c.name })),
      ...choices,
      query: ctx.url.search,
    });
  },
};

/** Activity: every admin write (who, when, what, before → after, reason), filtered; CSV export. */
export default function ActivityPage({ data }: PageProps<Data>) {
  const { filter } = data;
  const names = new Map(data.competitions.map((c) => [c.id, c.name]));
  return (
    <>
      <Head>
        <title>Activity · Admin</title>
      </Head>
      <div className="flex flex-col gap-6">
        <PageHeader
          title="Activity"
          description="Every change made by an admin or by the automatic status, newest first. Records are never edited or deleted."
          actions={
            <>
              <Button variant="outline" href={`/admin/activity/csv${data.query}`}>
                Export CSV
              </Button>
              <BackButton />
            </>
          }
        />
        <form
          method="get"
          action="/admin/activity"
          className="grid gap-3 rounded-lg border border-border bg-card p-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
          aria-label="Filter the activity"
        >
          <div className="flex flex-col gap-1.5 lg:col-span-2">
            <Label htmlFor="competitionId">Competition</Label>
            <Select id="competitionId" name="competitionId">
              <option value="">All competitions</option>
              {data.competitions.map((c) => (
                <option key={c.id} value={c.id} selected={filter.competitionId === c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="admin">Admin</Label>
            <Select id="admin" name="admin">
              <option value="">Everyone</option>
              {data.admins.map((a) => <option key={a} selected={filter.admin === a}>{a}</option>)}
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="action">Action</Label>
            <Select id="action" name="action">
              <option value="">All actions</option>
              {data.actions.map((a) => <option key={a} selected={filter.action === a}>{a}</option>)}
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="from">From (UTC)</Label>
            <Input id="from" name="from" type="date" defaultValue={filter.from?.slice(0, 10)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="to">To (UTC)</Label>
            <Input id="to" name="to" type="date" defaultValue={filter.to?.slice(0, 10)} />
          </div>
          <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
            <Button type="submit">Filter</Button>
            <Button variant="outline" href="/admin/activity">Clear</Button>
          </div>
        </form>
        <p className="text-sm text-muted-foreground" role="status">
          {data.entries.length === AUDIT_LIMIT
            ? `Showing the newest ${AUDIT_LIMIT} records; narrow the filter to see older ones.`
            : `${data.entries.length} ${data.entries.length === 1 ? "record" : "records"}`}
        </p>
        <ActivityTable entries={data.entries} names={names} />
      </div>
    </>
  );
}
