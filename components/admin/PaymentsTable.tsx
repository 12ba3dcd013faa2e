import { formatAdminDateUtc } from "@/lib/client/admin/datetime.ts";
import AdminRefundEntry from "@/islands/AdminRefundEntry.tsx";
import { CompetitionLink } from "./CompetitionLink.tsx";
import { formatPrice } from "@/lib/domain/format.ts";
import type { PaymentRow, PaymentSort, PaymentState } from "@/lib/payments/ledger.ts";
import { CARD_LABEL, Table, Td, Th, THead } from "./Table.tsx";

export const STATE_LABELS: Record<PaymentState, string> = {
  entry: "Entry",
  refunded: "Refunded",
  pending: "Pending",
  unpaid: "Unpaid",
};

/** The columns a click sorts by, and the link that sorts by each. */
export interface SortLinks {
  current: PaymentSort;
  descending: boolean;
  href(sort: PaymentSort, descending: boolean): string;
}

function SortHeader(
  { label, sort, links, className }: {
    label: string;
    sort: PaymentSort;
    links: SortLinks;
    className?: string;
  },
) {
  const active = links.current === sort;
  const next = active ? !links.descending : sort === "createdAt";
  return (
    <Th
      className={className}
      aria-sort={active ? (links.descending ? "descending" : "ascending") : undefined}
    >
      <a href={links.href(sort, next)} className="underline-offset-4 hover:underline">
        {label}
        {active && <span aria-hidden="true">{links.descending ? " ↓" : " ↑"}</span>}
      </a>
    </Th>
  );
}

/** Each payment once: who paid, for which competition, how much, and what became of it. */
export function PaymentsTable({ rows, sort }: { rows: PaymentRow[]; sort: SortLinks }) {
  return (
    <Table caption="Payments" tableClass="max-sm:block">
      <THead className="max-sm:hidden">
        <tr>
          <SortHeader label="Payment" sort="payment" links={sort} />
          <SortHeader label="Competition" sort="competition" links={sort} />
          <Th>Entrant</Th>
          <SortHeader label="Amount" sort="amount" links={sort} className="text-right" />
          <Th>State</Th>
          <SortHeader label="Created" sort="createdAt" links={sort} />
        </tr>
      </THead>
      <tbody className="max-sm:block">
        {rows.length === 0 && (
          <tr>
            <td colSpan={6} className="px-3 py-2.5">No payments match.</td>
          </tr>
        )}
        {rows.map((p) => (
          <tr
            key={p.paymentIntentId}
            className="border-b border-border max-sm:block max-sm:py-2"
            data-payment={p.paymentIntentId}
          >
            <Td data-label="Payment" className={`font-mono text-xs max-sm:block ${CARD_LABEL}`}>
              {p.paymentIntentId}
            </Td>
            <Td data-label="Competition" className={`max-sm:block ${CARD_LABEL}`}>
              <CompetitionLink id={p.competitionId} name={p.competitionName} />
            </Td>
            <Td data-label="Entrant" className={`max-sm:block ${CARD_LABEL}`}>
              <span className="block">{p.teamName || "—"}</span>
              <span className="block text-xs text-muted-foreground">{p.email}</span>
            </Td>
            <Td
              data-label="Amount"
              className={`text-right tabular-nums max-sm:block max-sm:text-left ${CARD_LABEL}`}
            >
              {formatPrice(p.amount / 100, p.currency)}
            </Td>
            <Td data-label="State" className={`max-sm:block ${CARD_LABEL}`}>
              <span data-state={p.state}>{STATE_LABELS[p.state]}</span>
              {p.teamId && <span className="ml-2 font-mono text-xs">{p.teamId}</span>}
              {p.refundedAmount !== null && (
                <span className="block text-xs">
                  {formatPrice(p.refundedAmount / 100, p.currency)} back
                </span>
              )}
              {p.refundReason && (
                <span className="block text-xs text-muted-foreground">{p.refundReason}</span>
              )}
              {p.state === "entry" && p.teamId && (
                <AdminRefundEntry
                  competitionId={p.competitionId}
                  competitionName={p.competitionName ?? `Competition ${p.competitionId}`}
                  teamId={p.teamId}
                  teamName={p.teamName}
                  amount={formatPrice(p.amount / 100, p.currency)}
                />
              )}
            </Td>
            <Td data-label="Created" className={`max-sm:block ${CARD_LABEL}`}>
              {formatAdminDateUtc(p.createdAt)}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
