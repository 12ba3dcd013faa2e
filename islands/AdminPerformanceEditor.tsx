import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { PerformanceTable } from "@/components/admin/PerformanceTable.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { useCompetitions } from "@/lib/client/admin/use_competitions.ts";
import { usePerformances } from "@/lib/client/admin/use_performances.ts";
import { POSITION_GROUPS } from "@/lib/client/admin/labels.ts";
import { errorText } from "@/lib/client/admin/admin_api.ts";

/** Record player performances of a competition; points are computed live as you type. */
export default function AdminPerformanceEditor(props: { competitionId?: number | null }) {
  const competitions = useCompetitions();
  const [competitionId, setCompetitionId] = useState<number | null>(props.competitionId ?? null);
  const perf = usePerformances(competitionId);

  const choose = (value: string) => {
    const id = value ? Number(value) : null;
    setCompetitionId(id);
    const url = new URL(location.href);
    if (id) url.searchParams.set("competitionId", String(id));
    else url.searchParams.delete("competitionId");
    history.replaceState(null, "", url);
  };

  const chosen = competitions.rows?.find((c) => c.id === competitionId);
  const { records, list } = perf;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Player Performances"
        description="Record what each player did; points update as you type."
        actions={<BackButton />}
      />
      <div className="sticky top-2 z-20 flex flex-wrap items-end justify-between gap-4 rounded-lg border border-border bg-card p-4 shadow-sm">
        <div className="flex w-full max-w-md flex-col gap-2">
          <Label htmlFor="competition">Competition</Label>
          <Select
            id="competition"
            value={competitionId ? String(competitionId) : ""}
            onChange={(e) => choose(e.currentTarget.value)}
            disabled={!competitions.rows}
          >
            <option value="">Select a competition</option>
            {(competitions.rows ?? []).map((c) => (
              <option key={c.id} value={String(c.id)}>{c.name} ({c.status})</option>
            ))}
          </Select>
        </div>
        <div className="flex items-center gap-3">
          {chosen && (
            <a className="text-sm text-primary hover:underline" href={`/leaderboard/${chosen.id}`}>
              View leaderboard
            </a>
          )}
          {list.length > 0 && (
            <span className="text-sm text-muted-foreground">{list.length} players</span>
          )}
          <Button
            disabled={list.length === 0 || perf.saving}
            onClick={() => void perf.saveAll()}
          >
            <Icon name="save" />
            {perf.saving ? "Saving..." : "Save All"}
          </Button>
        </div>
      </div>
      {!competitionId && (
        <EmptyState
          title="Choose a competition"
          description="Pick a competition above to record its player performances."
        />
      )}
      {competitionId && records.error && (
        <ErrorState message={errorText(records.error, "Failed to load player performances")} />
      )}
      {competitionId && !records.error && !records.data && <TableSkeleton rows={8} />}
      {competitionId && records.data && list.length === 0 && records.data.length === 0 && (
        <EmptyState
          title="No players found for this competition."
          description="Make sure you've added players to the competition."
          action={
            <Button variant="outline" href={`/admin/competitions/${competitionId}/players`}>
              Manage Players
            </Button>
          }
        />
      )}
      {POSITION_GROUPS.map((group) => {
        const records = list.filter((r) => r.player.position === group.position);
        if (records.length === 0) return null;
        return (
          <PerformanceTable
            key={group.position}
            title={group.title}
            position={group.position}
            records={records}
            drafts={perf.drafts}
            errors={perf.errors}
            onChange={perf.change}
          />
        );
      })}
    </div>
  );
}
