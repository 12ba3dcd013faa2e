import { cn } from "@/lib/client/cn.ts";
import { RowActionButton, RowActionLink as ActionLink } from "./RowActions.tsx";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";

export interface CompetitionActionsProps {
  competition: CompetitionRow;
  className?: string;
  onCopyLink: (competition: CompetitionRow) => void;
  onDelete: (competition: CompetitionRow) => void;
  onCancel: (competition: CompetitionRow) => void;
}

/**
 * The row actions of the dashboard table. Game events exist only for a LIVE
 * competition; in the wide table other rows keep its slot empty so the icons line up.
 */
export function CompetitionActions(
  { competition, onCopyLink, onDelete, onCancel, className }: CompetitionActionsProps,
) {
  const id = competition.id;
  const name = competition.name;
  return (
    <div className={cn("flex items-center justify-end gap-0.5", className)}>
      <ActionLink href={`/admin/competitions/edit/${id}`} label={`Edit ${name}`} icon="edit" />
      <ActionLink
        href={`/admin/competitions/${id}/players`}
        label={`Manage players of ${name}`}
        icon="users"
      />
      <ActionLink
        href={`/admin/competitions/${id}/prizes`}
        label={`Manage prizes of ${name}`}
        icon="trophy"
      />
      <ActionLink
        href={`/admin/player-performances?competitionId=${id}`}
        label={`Set match result of ${name}`}
        icon="clipboard"
      />
      {competition.status === "LIVE"
        ? (
          <ActionLink
            href={`/admin/competitions/${id}/events`}
            label={`Game events of ${name}`}
            icon="activity"
          />
        )
        : <span className="hidden h-8 w-8 shrink-0 md:block" aria-hidden="true" />}
      <ActionLink href={`/leaderboard/${id}`} label={`View leaderboard of ${name}`} icon="chart" />
      <RowActionButton
        label={`Copy entry link of ${name}`}
        title="Copy entry link"
        icon="link"
        onClick={() => onCopyLink(competition)}
      />
      {competition.status === "UPCOMING" || competition.status === "LIVE"
        ? (
          <RowActionButton
            label={`Cancel ${name} and refund everyone`}
            title="Cancel and refund everyone"
            icon="ban"
            destructive
            onClick={() => onCancel(competition)}
          />
        )
        : <span className="hidden h-8 w-8 shrink-0 md:block" aria-hidden="true" />}
      <RowActionButton
        label={`Delete ${name}`}
        title="Delete"
        icon="trash"
        destructive
        onClick={() => onDelete(competition)}
      />
    </div>
  );
}
