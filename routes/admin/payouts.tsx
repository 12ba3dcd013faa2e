import { formatAdminDateUtc } from "@/lib/client/admin/datetime.ts";
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionLink } from "@/components/admin/CompetitionLink.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { CARD_LABEL, Table, Td, Th, THead } from "@/components/admin/Table.tsx";
import { Button } from "@/components/ui/Button.tsx";
import AdminPayoutPay from "@/islands/AdminPayoutPay.tsx";
import { PAYOUT_STATES, type PayoutState } from "@/lib/db/payout_records.ts";
import { formatPrice } from "@/lib/domain/format.ts";
import {
  detailsText,
  listPayoutRows,
  parsePayoutFilter,
  type PayoutRow,
  payoutTotals,
} from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

interface Data extends ReturnType<typeof payoutTotals> {
  payouts: PayoutRow[];
  state: PayoutState | null;
}

const LABELS: Record<PayoutState, string> = {
  owed: "Owed",
  claimed: "Claimed",
  paid: "Paid",
  unclaimed: "Unclaimed",
};

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const filter = parsePayoutFilter(ctx.url.searchParams);
    const all = await listPayoutRows(ctx.state.services, { competitionId: filter.competitionId });
    const payouts = filter.state ? all.filter((p) => p.state === filter.state) : all;
    return ctx.render({ ...payoutTotals(all), payouts, state: filter.state });
  },
};

const money = (totals: Record<string, number>) =>
  Object.entries(totals).map(([cur, cents]) => formatPrice(cents / 100, cur)).join(" + ") ||
  formatPrice(0, "usd");

/** How long the winner has waited ("3 days"), or how long the payment took once paid. */
function waited(p: PayoutRow): string {
  const days = p.waitedDays === 1 ? "1 day" : `${p.waitedDays} days`;
  return p.status === "PAID" ? `paid after ${days}` : days;
}

function prize(p: PayoutRow): string {
  return p.description ?? formatPrice(p.amount / 100, p.currency);
}

/** Payouts: every prize owed, claimed, paid or unclaimed, with totals; record payments, CSV. */
export default function PayoutsPage({ data }: PageProps<Data>) {
  return (
    <>
      <Head>
        <title>Payouts · Admin</title>
      </Head>
      <div className="flex flex-col gap-6">
        <PageHeader
          title="Payouts"
          description="Winners are e-mailed a private claim link; record each payment once with its reference."
          actions={
            <>
              <Button variant="outline" href="/admin/payouts/csv">Export CSV</Button>
              <BackButton />
            </>
          }
        />
        <nav aria-label="Payout states" className="flex flex-wrap gap-2">
          <Button variant={data.state === null ? "default" : "outline"} href="/admin/payouts">
            All
          </Button>
          {PAYOUT_STATES.map((state) => (
            <Button
              key={state}
              variant={data.state === state ? "default" : "outline"}
              href={`/admin/payouts?status=${state}`}
            >
              {LABELS[state]}: <span data-count={state}>{data.counts[state]}</span>
              <span className="ml-1 text-xs opacity-80" data-total={state}>
                ({money(data.totals[state])})
              </span>
            </Button>
          ))}
        </nav>
        <Table caption="Payouts" tableClass="max-sm:block">
          <THead className="max-sm:hidden">
            <tr>
              <Th>Competition</Th>
              <Th>Place</Th>
              <Th>Winner</Th>
              <Th className="text-right">Prize</Th>
              <Th>State</Th>
              <Th className="text-right">Waiting</Th>
              <Th>Payout details</Th>
              <Th>Payment</Th>
            </tr>
          </THead>
          <tbody className="max-sm:block">
            {data.payouts.length === 0 && (
              <tr>
                <td colSpan={8} className="px-3 py-2.5">
                  No payouts yet. Winners appear here when a competition is completed.
                </td>
              </tr>
            )}
            {data.payouts.map((p) => (
              <tr
                key={`${p.competitionId}-${p.entryId}`}
                className="border-b border-border max-sm:block max-sm:py-2"
                data-payout={p.teamId}
              >
                <Td data-label="Competition" className={`max-sm:block ${CARD_LABEL}`}>
                  <CompetitionLink id={p.competitionId} name={p.competitionName} />
                </Td>
                <Td data-label="Place" className={`max-sm:block ${CARD_LABEL}`}>{p.place}</Td>
                <Td data-label="Winner" className={`max-sm:block ${CARD_LABEL}`}>
                  <span className="block">{p.teamName}</span>
                  <span className="block font-mono text-xs">{p.teamId}</span>
                  <span className="block text-xs text-muted-foreground">{p.email}</span>
                </Td>
                <Td
                  data-label="Prize"
                  className={`text-right tabular-nums max-sm:block max-sm:text-left ${CARD_LABEL}`}
                >
                  {prize(p)}
                </Td>
                <Td data-label="State" className={`max-sm:block ${CARD_LABEL}`}>
                  <span data-state={p.state}>{LABELS[p.state]}</span>
                </Td>
                <Td
                  data-label="Waiting"
                  className={`text-right tabular-nums max-sm:block max-sm:text-left ${CARD_LABEL}`}
                  data-waited={p.waitedDays}
                >
                  {waited(p)}
                </Td>
                <Td data-label="Payout details" className={`break-all max-sm:block ${CARD_LABEL}`}>
                  {detailsText(p.details) || "—"}
                </Td>
                <Td data-label="Payment" className={`max-sm:block ${CARD_LABEL}`}>
                  {p.status === "PAID"
                    ? <span>{formatAdminDateUtc(p.paidAt, { time: false })} · {p.reference}</span>
                    : (
                      <AdminPayoutPay
                        competitionId={p.competitionId}
                        entryId={p.entryId}
                        label={`${p.place} place of ${
                          p.competitionName ?? "a deleted competition"
                        }`}
                      />
                    )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
