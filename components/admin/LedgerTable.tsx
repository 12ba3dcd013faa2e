import { CompetitionLink } from "./CompetitionLink.tsx";
import { formatPrice } from "@/lib/domain/format.ts";
import { LEDGER_COLUMNS, type LedgerLine } from "@/lib/payments/ledger.ts";
import { Table, Td, Th, THead } from "./Table.tsx";

const money = (cents: number | null, currency: string) =>
  cents === null ? "—" : formatPrice(cents / 100, currency);

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
          {LEDGER_COLUMNS.map(({ key, label, meaning }) => (
            <Th key={key} className="text-right">
              <abbr title={meaning} className="no-underline">{label}</abbr>
            </Th>
          ))}
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
              {line.competitionId === null
                ? line.name
                : <CompetitionLink id={line.competitionId} name={line.name} />}
            </Td>
            {LEDGER_COLUMNS.map(({ key }) => {
              const cents = line[key];
              return (
                <Td
                  key={key}
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

/** What each ledger column means, under the table, for a reader without the manual. */
export function LedgerLegend() {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-xs text-muted-foreground sm:grid-cols-2">
      {LEDGER_COLUMNS.map(({ key, label, meaning }) => (
        <div key={key}>
          <dt className="inline font-medium text-foreground">{label}:</dt>{" "}
          <dd className="inline">{meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
