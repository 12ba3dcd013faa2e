import { useState } from "react";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { Table, Td, Th, THead, Tr } from "./Table.tsx";
import type { AnalyticsDay } from "@/lib/client/admin/types.ts";

const FUNNEL: { key: keyof Omit<AnalyticsDay, "date">; label: string }[] = [
  { key: "views", label: "Views" },
  { key: "teamCompleted", label: "Team completed" },
  { key: "paymentPage", label: "Payment page" },
  { key: "purchases", label: "Purchases" },
];

const W = 560;
const H = 160;
const PAD_BOTTOM = 20;

function shortDate(date: string): string {
  const [, month, day] = date.split("-");
  return `${Number(month)}/${Number(day)}`;
}

/** Bars of purchases (entries) per day, with a line of page views scaled to the same height. */
function EntriesChart({ days }: { days: AnalyticsDay[] }) {
  const maxPurchases = Math.max(1, ...days.map((d) => d.purchases));
  const maxViews = Math.max(1, ...days.map((d) => d.views));
  const step = W / Math.max(1, days.length);
  const plot = H - PAD_BOTTOM;
  const viewPoints = days.map((d, i) =>
    `${(i + 0.5) * step},${plot - (d.views / maxViews) * (plot - 8)}`
  ).join(" ");
  const total = days.reduce((sum, d) => sum + d.purchases, 0);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby="entries-chart-title entries-chart-desc"
      className="h-auto w-full"
    >
      <title id="entries-chart-title">Entries per day, last {days.length} days</title>
      <desc id="entries-chart-desc">
        {total} entries in total; bars show entries, the line shows page views.
      </desc>
      <line x1="0" x2={W} y1={plot} y2={plot} className="stroke-border" strokeWidth="1" />
      {days.map((d, i) => {
        const h = (d.purchases / maxPurchases) * (plot - 8);
        return (
          <g key={d.date}>
            <rect
              x={i * step + step * 0.2}
              y={plot - h}
              width={step * 0.6}
              height={h}
              rx="2"
              className="fill-primary"
            >
              <title>{`${d.date}: ${d.purchases} entries, ${d.views} views`}</title>
            </rect>
            {i % 2 === 0 && (
              <text
                x={(i + 0.5) * step}
                y={H - 4}
                textAnchor="middle"
                className="fill-muted-foreground"
                fontSize="10"
              >
                {shortDate(d.date)}
              </text>
            )}
          </g>
        );
      })}
      <polyline
        points={viewPoints}
        fill="none"
        className="stroke-muted-foreground"
        strokeWidth="1.5"
        strokeDasharray="4 3"
      />
    </svg>
  );
}

function Funnel({ days }: { days: AnalyticsDay[] }) {
  const totals = FUNNEL.map((f) => ({
    ...f,
    value: days.reduce((sum, d) => sum + d[f.key], 0),
  }));
  const top = Math.max(1, totals[0].value);
  return (
    <ol className="flex flex-col gap-3" aria-label="Conversion funnel">
      {totals.map((step) => (
        <li key={step.key} className="flex flex-col gap-1">
          <div className="flex justify-between text-sm">
            <span>{step.label}</span>
            <span className="tabular-nums font-medium">
              {step.value}
              <span className="ml-2 text-xs text-muted-foreground">
                {Math.round((step.value / top) * 100)}%
              </span>
            </span>
          </div>
          <div className="h-2 w-full rounded-full bg-muted">
            <div
              className="h-2 rounded-full bg-primary"
              style={{ width: `${Math.min(100, (step.value / top) * 100)}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}

function DataTable({ days }: { days: AnalyticsDay[] }) {
  return (
    <Table caption="Daily analytics">
      <THead>
        <tr>
          <Th>Date</Th>
          {FUNNEL.map((f) => <Th key={f.key} className="text-right">{f.label}</Th>)}
        </tr>
      </THead>
      <tbody>
        {days.map((d) => (
          <Tr key={d.date}>
            <Td>{d.date}</Td>
            {FUNNEL.map((f) => <Td key={f.key} className="text-right tabular-nums">{d[f.key]}</Td>)}
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Entries per day and the purchase funnel of the last days (first-party analytics). */
export function AnalyticsPanel(
  { days, loading, failed }: { days: AnalyticsDay[] | null; loading: boolean; failed: boolean },
) {
  const [asTable, setAsTable] = useState(false);
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4 space-y-0">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Entries and funnel</CardTitle>
          <CardDescription>
            Last {days?.length || 14} days: views → team completed → payment page → purchases
          </CardDescription>
        </div>
        {days && days.length > 0 && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setAsTable(!asTable)}
          >
            {asTable ? "Show chart" : "Show table"}
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {loading && !days && <Skeleton className="h-40 w-full" />}
        {failed && !days && (
          <p className="text-sm text-muted-foreground">Analytics are not available right now.</p>
        )}
        {days && asTable && <DataTable days={days} />}
        {days && !asTable && (
          <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
            <div className="relative">
              <EntriesChart days={days} />
              <div className="mt-2 flex gap-4 text-xs text-muted-foreground" aria-hidden="true">
                <span className="flex items-center gap-1.5">
                  <span className="inline-block h-2.5 w-2.5 rounded-sm bg-primary" />Entries
                </span>
                <span className="flex items-center gap-1.5">
                  <span className="inline-block w-4 border-t-2 border-dashed border-muted-foreground" />
                  Page views
                </span>
              </div>
              {days.every((d) => d.views === 0 && d.purchases === 0) && (
                <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
                  No visits or entries in this period yet.
                </p>
              )}
            </div>
            <Funnel days={days} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
