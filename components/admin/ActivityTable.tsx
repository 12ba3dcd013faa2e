import { formatAdminDateUtc } from "@/lib/client/admin/datetime.ts";
import { CARD_LABEL, Table, Td, Th, THead } from "@/components/admin/Table.tsx";
import { type AuditEntry, changesText } from "@/lib/domain/audit.ts";

export interface ActivityTableProps {
  entries: AuditEntry[];
  /** Competition names by id (the column is left out when showing one competition). */
  names?: Map<number, string>;
  caption?: string;
}

/** "26 Nov 2026, 22:41:07 UTC": the log's times, the same for every admin, to the second. */
function when(iso: string): string {
  return formatAdminDateUtc(iso, { seconds: true });
}

/** The activity log as a table (cards on phones): when, who, what, the changes, the reason. */
export function ActivityTable({ entries, names, caption = "Activity" }: ActivityTableProps) {
  const cols = names ? 6 : 5;
  return (
    <Table caption={caption} tableClass="max-sm:block">
      <THead className="max-sm:hidden">
        <tr>
          <Th>When</Th>
          <Th>Admin</Th>
          <Th>Action</Th>
          {names && <Th>Competition</Th>}
          <Th>Before → after</Th>
          <Th>Reason</Th>
        </tr>
      </THead>
      <tbody className="max-sm:block">
        {entries.length === 0 && (
          <tr>
            <td colSpan={cols} className="px-3 py-2.5 text-muted-foreground" data-empty="">
              No activity recorded yet.
            </td>
          </tr>
        )}
        {entries.map((e) => (
          <tr key={e.id} className="border-b border-border align-top max-sm:block max-sm:py-2">
            <Td data-label="When" className={`whitespace-nowrap max-sm:block ${CARD_LABEL}`}>
              {when(e.at)}
            </Td>
            <Td data-label="Admin" className={`max-sm:block ${CARD_LABEL}`}>{e.admin}</Td>
            <Td data-label="Action" className={`max-sm:block ${CARD_LABEL}`}>
              <span className="block font-medium">{e.action}</span>
              <span className="block font-mono text-xs text-muted-foreground">{e.request}</span>
            </Td>
            {names && (
              <Td data-label="Competition" className={`max-sm:block ${CARD_LABEL}`}>
                {e.competitionId === null ? "—" : (
                  <a
                    className="underline underline-offset-2"
                    href={`/admin/competitions/edit/${e.competitionId}`}
                  >
                    {names.get(e.competitionId) ?? `Competition ${e.competitionId}`}
                  </a>
                )}
              </Td>
            )}
            <Td
              data-label="Before → after"
              className={`max-w-md whitespace-pre-line break-words font-mono text-xs max-sm:block ${CARD_LABEL}`}
            >
              {changesText(e) || "—"}
            </Td>
            <Td data-label="Reason" className={`break-words max-sm:block ${CARD_LABEL}`}>
              {e.reason ?? "—"}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
