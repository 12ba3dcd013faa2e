import { buttonClass } from "../ui/Button.tsx";
import { cn } from "@/lib/client/cn.ts";
import { Icon, type IconName } from "./Icons.tsx";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";

export interface CompetitionActionsProps {
  competition: CompetitionRow;
  className?: string;
  onCopyLink: (competition: CompetitionRow) => void;
  onDelete: (competition: CompetitionRow) => void;
  onCancel: (competition: CompetitionRow) => void;
}

const ICON_BUTTON = buttonClass({ variant: "ghost", size: "icon-sm" });

function ActionLink(props: { href: string; label: string; icon: IconName }) {
  return (
    <a href={props.href} className={ICON_BUTTON} aria-label={props.label} title={props.label}>
      <Icon name={props.icon} />
    </a>
  );
}

/**
 * The row actions of the dashboard table (SPEC §2 Dashboard). Game events exist only for a LIVE
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
      <button
        type="button"
        className={ICON_BUTTON}
        aria-label={`Copy entry link of ${name}`}
        title="Copy entry link"
        onClick={() => onCopyLink(competition)}
      >
        <Icon name="link" />
      </button>
      {competition.status === "UPCOMING" || competition.status === "LIVE"
        ? (
          <button
            type="button"
            className={`${ICON_BUTTON} text-destructive hover:text-destructive`}
            aria-label={`Cancel ${name} and refund everyone`}
            title="Cancel and refund everyone"
            onClick={() => onCancel(competition)}
          >
            <Icon name="ban" />
          </button>
        )
        : <span className="hidden h-8 w-8 shrink-0 md:block" aria-hidden="true" />}
      <button
        type="button"
        className={`${ICON_BUTTON} text-destructive hover:text-destructive`}
        aria-label={`Delete ${name}`}
        title="Delete"
        onClick={() => onDelete(competition)}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}
