import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Table, Td, Th, THead } from "@/components/admin/Table.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { formatPrice } from "@/lib/domain/format.ts";
import {
  listPayments,
  PAGE_SIZE,
  parsePageCursor,
  PAYMENT_STATES,
  type PaymentsReport,
  type PaymentState,
} from "@/lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

interface Data extends PaymentsReport {
  status: PaymentState | null;
  /** A page after the first. */
  paged: boolean;
}

const LABELS: Record<PaymentState, string> = {
  entry: "Entry",
  refunded: "Refunded",
  pending: "Pending",
  unpaid: "Unpaid",
};

export const handler: Handlers<Data, State> = {
  /**
   * ?status= one of the states filters the list (anything else shows every state); ?cursor= is a
   * page of entries after the first (a 400 page when it is not one of ours).
   */
  async GET(_req, ctx) {
    const raw = ctx.url.searchParams.get("status");
    const status = PAYMENT_STATES.find((s) => s === raw) ?? null;
    const cursor = parsePageCursor(ctx.url.searchParams.get("cursor"));
    const report = await listPayments(ctx.state.services, status, { cursor });
    return ctx.render({ ...report, status, paged: cursor !== undefined });
  },
};

/** Payments: what became of each one (entry, refunded, pending, unpaid), with a count per state. */
export default function PaymentsPage({ data }: PageProps<Data>) {
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
        <nav aria-label="Payment states" className="flex flex-wrap gap-2">
          <Button variant={data.status === null ? "default" : "outline"} href="/admin/payments">
            All
          </Button>
          {PAYMENT_STATES.map((state) => (
            <Button
              key={state}
              variant={data.status === state ? "default" : "outline"}
              href={`/admin/payments?status=${state}`}
            >
              {LABELS[state]}: <span data-count={state}>{data.counts[state]}</span>
            </Button>
          ))}
        </nav>
        <Table caption="Payments">
          <THead>
            <tr>
              <Th>Payment</Th>
              <Th>Competition</Th>
              <Th>Team</Th>
              <Th>Amount</Th>
              <Th>State</Th>
              <Th>Created</Th>
            </tr>
          </THead>
          <tbody>
            {data.payments.length === 0 && (
              <tr>
                <td colSpan={6} className="px-3 py-2.5">No payments.</td>
              </tr>
            )}
            {data.payments.map((p) => (
              <tr key={p.paymentIntentId} className="border-b border-border">
                <Td className="font-mono text-xs">{p.paymentIntentId}</Td>
                <Td>{p.competitionId}</Td>
                <Td>{p.teamName}</Td>
                <Td>{formatPrice(p.amount / 100, p.currency)}</Td>
                <Td>
                  {LABELS[p.state]}
                  {p.teamId && <span className="ml-2 font-mono text-xs">{p.teamId}</span>}
                  {p.refundReason && (
                    <span className="block text-xs text-muted-foreground">{p.refundReason}</span>
                  )}
                </Td>
                <Td>{p.createdAt.slice(0, 19).replace("T", " ")}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
        <PageLinks data={data} />
      </div>
    </>
  );
}

/** "First page" on a later page, "Next page" while more entries follow ({PAGE_SIZE} a page). */
function PageLinks({ data }: { data: Data }) {
  if (!data.paged && !data.next) return null;
  const href = (cursor?: string) => {
    const params = new URLSearchParams();
    if (data.status) params.set("status", data.status);
    if (cursor) params.set("cursor", cursor);
    const query = params.toString();
    return `/admin/payments${query ? `?${query}` : ""}`;
  };
  return (
    <nav aria-label="Pages of payments" className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-muted-foreground">{PAGE_SIZE} entries a page</span>
      {data.paged && <Button variant="outline" href={href()}>First page</Button>}
      {data.next && <Button variant="outline" href={href(data.next)}>Next page</Button>}
    </nav>
  );
}
