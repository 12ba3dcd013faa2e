import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { ReasonField } from "./ReasonField.tsx";

export interface StatusConfirmDialogProps {
  /** Why the change needs a confirmation, as the server said (null: closed). */
  message: string | null;
  /** The status asked for. */
  status: string;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/**
 * Asks the admin to confirm, with a reason, a status change against the clock (LIVE before
 * kick-off, COMPLETED before the result) or leaving COMPLETED (the awards are withdrawn and the
 * winners told). The reason is kept in the activity log.
 */
export function StatusConfirmDialog(
  { message, status, busy, onConfirm, onClose }: StatusConfirmDialogProps,
) {
  const [reason, setReason] = useState("");
  const submit = () => {
    if (reason.trim()) onConfirm(reason.trim());
  };
  return (
    <Dialog
      open={message !== null}
      onClose={onClose}
      title={`Set the status to ${status}?`}
      description={message ?? ""}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>Keep the status</Button>
          <Button variant="destructive" disabled={busy || !reason.trim()} onClick={submit}>
            {busy ? "Saving..." : `Set ${status}`}
          </Button>
        </>
      }
    >
      <ReasonField
        id="status-reason"
        label="Reason (required; kept in the activity log)"
        value={reason}
        placeholder="The match kicked off early."
        onChange={setReason}
      />
    </Dialog>
  );
}
