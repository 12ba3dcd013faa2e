import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { LedgerLegend, LedgerTable } from "@/components/admin/LedgerTable.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { PaymentsTable, STATE_LABELS } from "@/components/admin/PaymentsTable.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { formatPrice } from "@/lib/domain/format.ts";
import {
  type Ledger,
  PAGE_SIZE,
  parsePaymentQuery,
  PAYMENT_STATES,
  type PaymentQuery,
  type PaymentSort,
  type PaymentsReport,
  queryPayments,
  readLedger,
  readPaymentBook,
} from "@/lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

interface Data extends PaymentsReport {
  query: PaymentQuery;
  ledger: Ledger;
  competitions: { id: number; name: string }[];
}

export const handler: Handlers<Data, State> = {
  /** ?status, ?competitionId, ?q, ?sort, ?dir and ?cursor as the API takes them (400 when bad). */
  async GET(_req, ctx) {
    const services = ctx.state.services;
    const query = parsePaymentQuery(ctx.url.searchParams);
    const book = await readPaymentBook(services);
    const ledger = await readLedger(services, book);
    const competitions = ledger.competitions.map((l) => ({ id: l.competitionId!, name: l.name }));
    return ctx.render({ ...queryPayments(book, query), query, ledger, competitions });
  },
};

/** The URL of the screen with `query` changed by `patch` (back to the first page). */
function hrefOf(query: PaymentQuery, patch: Partial<PaymentQuery>): string {
  const q = { ...query, offset: 0, ...patch };
  const params = new URLSearchParams();
  if (q.status) params.set("status", q.status);
  if (q.competitionId !== null) params.set("competitionId", String(q.competitionId));
  if (q.search) params.set("q", q.search);
  if (q.sort !== "createdAt" || !q.descending) {
    params.set("sort", q.sort);
    params.set("dir", q.descending ? "desc" : "asc");
  }
  if (q.offset > 0) params.set("cursor", String(q.offset));
  const text = params.toString();
  return `/admin/payments${text ? `?${text}` : ""}`;
}

const totalText = (money: Record<string, number>) =>
  Object.entries(money).map(([cur, cents]) => formatPrice(cents / 100, cur)).join(" + ") ||
  formatPrice(0, "usd");

/** Payments and the ledger: each payment once, what became of it, and whether the books balance. */
export default function PaymentsPage({ data }: PageProps<Data>) {
  const { query } = data;
  const sort = {
    current: query.sort,
    descending: query.descending,
    href: (s: PaymentSort, descending: boolean) => hrefOf(query, { sort: s, descending }),
  };
  return (
    <>
      <Head>
        <title>Payments · Admin</title>
      </Head>
      <div className="flex flex-col gap-6">
        <PageHeader
          title="Payments"
          description="Every payment ends as one entry or one refund; pending ones are finished by the server within a minute."
          actions={<BackButton />}
        />
        <section aria-labelledby="ledger-title" className="flex flex-col gap-2">
          <h2 id="ledger-title" className="text-lg font-semibold">Ledger</h2>
          <LedgerTable lines={data.ledger.competitions} totals={data.ledger.totals} />
          <LedgerLegend />
        </section>
        <nav aria-label="Payment states" className="flex flex-wrap gap-2">
          <Button
            variant={query.status === null ? "default" : "outline"}
            href={hrefOf(query, { status: null })}
          >
            All
          </Button>
          {PAYMENT_STATES.map((state) => (
            <Button
              key={state}
              variant={query.status === state ? "default" : "outline"}
              href={hrefOf(query, { status: state })}
            >
              {STATE_LABELS[state]}: <span data-count={state}>{data.counts[state]}</span>
              <span className="ml-1 text-xs opacity-80" data-total={state}>
                ({totalText(data.totals[state])})
              </span>
            </Button>
          ))}
        </nav>
        <form method="get" action="/admin/payments" className="flex flex-wrap items-end gap-2">
          {query.status && <input type="hidden" name="status" value={query.status} />}
          <label className="flex flex-col gap-1 text-sm">
            Search
            <input
              type="search"
              name="q"
              defaultValue={query.search}
              placeholder="Name, e-mail, team ID or payment"
              className="h-9 w-72 max-w-full rounded-md border border-input bg-background px-3"
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Competition
            <select
              name="competitionId"
              defaultValue={query.competitionId === null ? "" : String(query.competitionId)}
              className="h-9 rounded-md border border-input bg-background px-2"
            >
              <option value="">All competitions</option>
              {data.competitions.map((c) => (
                <option key={c.id} value={String(c.id)}>{c.id} · {c.name}</option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="outline">Apply</Button>
        </form>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {data.matching} {data.matching === 1 ? "payment" : "payments"}
          {data.matching > PAGE_SIZE &&
            `, ${query.offset + 1}–${Math.min(query.offset + PAGE_SIZE, data.matching)} shown`}
        </p>
        <PaymentsTable rows={data.payments} sort={sort} />
        {(query.offset > 0 || data.next) && (
          <nav aria-label="Pages of payments" className="flex flex-wrap items-center gap-2">
            <span className="text-sm text-muted-foreground">{PAGE_SIZE} a page</span>
            {query.offset > 0 && (
              <Button variant="outline" href={hrefOf(query, { offset: 0 })}>First page</Button>
            )}
            {data.next && (
              <Button variant="outline" href={hrefOf(query, { offset: Number(data.next) })}>
                Next page
              </Button>
            )}
          </nav>
        )}
      </div>
    </>
  );
}
