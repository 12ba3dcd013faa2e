import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { ReasonField } from "./ReasonField.tsx";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";

export interface CancelDialogProps {
  competition: CompetitionRow | null;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/**
 * Asks why a competition is cancelled before cancelling it: every paid entry is refunded and
 * each entrant is e-mailed the reason.
 */
export function CancelDialog({ competition, busy, onConfirm, onClose }: CancelDialogProps) {
  const [reason, setReason] = useState("");
  const entries = competition?.entries ?? competition?.currentEntries ?? 0;
  const submit = () => {
    if (reason.trim()) onConfirm(reason.trim());
  };
  return (
    <Dialog
      open={competition !== null}
      onClose={onClose}
      title="Cancel competition"
      description={competition
        ? `Cancel "${competition.name}"? Its ${entries} paid ${
          entries === 1 ? "entry is" : "entries are"
        } refunded in full and every entrant is e-mailed the reason. This cannot be undone.`
        : ""}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>Keep it</Button>
          <Button variant="destructive" disabled={busy || !reason.trim()} onClick={submit}>
            {busy ? "Cancelling..." : "Cancel and refund everyone"}
          </Button>
        </>
      }
    >
      <ReasonField
        id="cancel-reason"
        label="Reason (required; sent to every entrant)"
        value={reason}
        placeholder="The match was postponed."
        onChange={setReason}
      />
    </Dialog>
  );
}
