import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";

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
      <div className="grid gap-2">
        <label htmlFor="status-reason" className="text-sm font-medium">
          Reason (required; kept in the activity log)
        </label>
        <textarea
          id="status-reason"
          rows={3}
          maxLength={300}
          value={reason}
          placeholder="The match kicked off early."
          onChange={(e) => setReason((e.target as HTMLTextAreaElement).value)}
          className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </div>
    </Dialog>
  );
}
