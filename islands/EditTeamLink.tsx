import { useEffect, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { editTokenOf } from "@/lib/client/user_entries.ts";
import { LocalTime } from "@/components/LocalTime.tsx";

export interface EditTeamLinkProps {
  teamId: string;
  /** The team can still be changed (before the deadline, not refunded). */
  open: boolean;
  /** Why it is locked, naming which (the deadline passed, the contest went live…). */
  lockedReason?: string | null;
  /** The competition's deadline (ISO), the last moment the team may change. */
  deadline?: string | null;
}

/**
 * "Edit team" on a page anyone with the team ID may see: shown only in the browser that paid
 * for the entry (it holds the edit link's secret) while the team can still change.
 */
export default function EditTeamLink({ teamId, open, lockedReason, deadline }: EditTeamLinkProps) {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => setToken(editTokenOf(teamId)), [teamId]);
  if (!token) return null;
  if (!open) {
    return (
      <p className="text-sm text-muted-foreground" data-edit-locked="">
        {(lockedReason ?? "The deadline has passed: this team is locked.").replace(
          "this team",
          "your team",
        )}
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-border p-3">
      <p className="min-w-0 flex-1 text-sm text-muted-foreground">
        Changed your mind? You can change your team for free until {deadline
          ? <LocalTime iso={deadline} className="whitespace-nowrap font-medium" />
          : "the deadline"}.
      </p>
      <Button href={`/edit/${token}`} variant="outline" data-edit-team="">Edit team</Button>
    </div>
  );
}
