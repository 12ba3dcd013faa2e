import { PerformanceRow } from "./PerformanceRow.tsx";
import { Table, Th, THead } from "./Table.tsx";
import type { Position } from "@/lib/domain/types.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";
import type { PerfDraft } from "@/lib/client/admin/performance_draft.ts";
import type { PerformanceRecord } from "@/lib/client/admin/types.ts";

export interface PerformanceTableProps {
  title: string;
  position: Position;
  records: PerformanceRecord[];
  drafts: Record<number, PerfDraft>;
  errors: Record<number, FieldErrors | null>;
  onChange: (playerId: number, patch: Partial<PerfDraft>) => void;
}

/** Same widths in every group, so the columns line up from one table to the next. */
const NUM = "w-[6rem]";

/** The performances of one position group (Goalkeepers, Defenders, Midfielders, Forwards). */
export function PerformanceTable(props: PerformanceTableProps) {
  const gk = props.position === "GK";
  const conceded = gk || props.position === "DEF";
  const columns = 8 + (gk ? 1 : 0) + (conceded ? 1 : 0);
  const headingId = `group-${props.position}`;
  return (
    <section className="flex flex-col gap-2" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {props.title}{" "}
        <span className="text-sm font-normal text-muted-foreground">({props.records.length})</span>
      </h2>
      <Table caption={props.title} fixed>
        <THead>
          <tr>
            <Th className="w-[16rem]">Player</Th>
            <Th className={NUM}>Minutes</Th>
            <Th className={NUM}>Goals</Th>
            <Th className={NUM}>Assists</Th>
            {gk && <Th className={NUM}>Saves</Th>}
            {conceded && <Th className="w-[9.5rem]">Goals Conceded</Th>}
            <Th className="w-[7rem] text-center">Clean Sheet</Th>
            <Th className="w-[9rem]">Cards</Th>
            <Th className="w-[7rem] text-right">Total Points</Th>
            <Th className="text-right">
              <span className="sr-only">More</span>
            </Th>
          </tr>
        </THead>
        <tbody>
          {props.records.map((r) => (
            <PerformanceRow
              key={r.player.id}
              player={r.player}
              draft={props.drafts[r.player.id]}
              errors={props.errors[r.player.id] ?? null}
              columns={columns}
              onChange={(patch) => props.onChange(r.player.id, patch)}
            />
          ))}
        </tbody>
      </Table>
    </section>
  );
}
