import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { BackButton } from "../../components/admin/BackButton.tsx";
import { PageHeader } from "../../components/admin/PageHeader.tsx";
import { Table, Td, Th, THead } from "../../components/admin/Table.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { formatPrice } from "../../lib/domain/format.ts";
import {
  listPayments,
  PAYMENT_STATES,
  type PaymentsReport,
  type PaymentState,
} from "../../lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

interface Data extends PaymentsReport {
  status: PaymentState | null;
}

const LABELS: Record<PaymentState, string> = {
  entry: "Entry",
  refunded: "Refunded",
  pending: "Pending",
  unpaid: "Unpaid",
};

export const handler: Handlers<Data, State> = {
  /** ?status= one of the states filters the list; anything else shows every state. */
  async GET(_req, ctx) {
    const raw = ctx.url.searchParams.get("status");
    const status = PAYMENT_STATES.find((s) => s === raw) ?? null;
    return ctx.render({ ...(await listPayments(ctx.state.services, status)), status });
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
      </div>
    </>
  );
}
