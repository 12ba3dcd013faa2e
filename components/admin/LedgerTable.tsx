import { formatPrice } from "@/lib/domain/format.ts";
import type { LedgerLine } from "@/lib/payments/ledger.ts";
import { Table, Td, Th, THead } from "./Table.tsx";

const money = (cents: number | null, currency: string) =>
  cents === null ? "—" : formatPrice(cents / 100, currency);

const COLUMNS: [string, (l: LedgerLine) => number | null][] = [
  ["Collected", (l) => l.collected],
  ["Refunded", (l) => l.refunded + l.refundsPending],
  ["Entries kept", (l) => l.entriesKept],
  ["Prizes owed", (l) => l.prizesOwed],
  ["Prizes paid", (l) => l.prizesPaid],
  ["Provider fees", (l) => l.providerFees],
  ["Operator keeps", (l) => l.operatorKeeps],
];

/**
 * The ledger: one row per competition and one total per currency. A negative "Operator keeps"
 * is an overlay (prizes above what the entries brought in).
 */
export function LedgerTable({ lines, totals }: { lines: LedgerLine[]; totals: LedgerLine[] }) {
  return (
    <Table caption="Ledger" scrolls>
      <THead>
        <tr>
          <Th>Competition</Th>
          {COLUMNS.map(([name]) => <Th key={name} className="text-right">{name}</Th>)}
        </tr>
      </THead>
      <tbody>
        {[...lines, ...totals].map((line) => (
          <tr
            key={line.competitionId ?? `total-${line.currency}`}
            className={line.competitionId === null
              ? "border-t-2 border-border font-semibold"
              : "border-b border-border"}
            data-ledger={line.competitionId ?? `total-${line.currency}`}
          >
            <Td>
              {line.competitionId === null ? line.name : `${line.competitionId} · ${line.name}`}
            </Td>
            {COLUMNS.map(([name, value]) => {
              const cents = value(line);
              return (
                <Td
                  key={name}
                  className={`text-right tabular-nums ${
                    cents !== null && cents < 0 ? "text-destructive" : ""
                  }`}
                >
                  {money(cents, line.currency)}
                </Td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
