import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { ReasonField } from "@/components/admin/ReasonField.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { toast } from "@/lib/client/toast.ts";

export interface AdminRefundEntryProps {
  competitionId: number;
  competitionName: string;
  teamId: string;
  teamName: string;
  /** The amount paid, formatted ("$5.00"). */
  amount: string;
}

/** The reason's length limits, as the API checks them. */
const MIN = 3;
const MAX = 500;

/**
 * Refunds one entry after a confirmation naming the entry, the amount and the reason: the payment
 * goes back, the entrant is e-mailed and the entry leaves the leaderboard. The page reloads to
 * show the payment refunded.
 */
export default function AdminRefundEntry(props: AdminRefundEntryProps) {
  const { competitionId, competitionName, teamId, teamName, amount } = props;
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const trimmed = reason.trim();
  const valid = trimmed.length >= MIN && trimmed.length <= MAX;
  const submit = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      const res = await adminFetch<{ message: string }>(
        `/api/admin/competitions/${competitionId}/entries/${encodeURIComponent(teamId)}/refund`,
        { method: "POST", body: { reason: trimmed } },
      );
      toast({ title: "Entry Refunded", description: res.message });
      location.reload();
    } catch (err) {
      toast({
        title: "Entry Not Refunded",
        description: errorText(err, "Failed to refund the entry"),
        variant: "destructive",
      });
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        className="mt-1"
        aria-label={`Refund entry ${teamId}`}
        onClick={() => setOpen(true)}
      >
        Refund
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Refund entry"
        description={`Refund ${amount} to "${teamName}" (${teamId}) in ${competitionName}? ` +
          "The payment goes back to the card, the entrant is e-mailed the reason and the entry " +
          "leaves the leaderboard. This cannot be undone."}
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)}>Keep it</Button>
            <Button variant="destructive" disabled={busy || !valid} onClick={submit}>
              {busy ? "Refunding..." : `Refund ${amount}`}
            </Button>
          </>
        }
      >
        <ReasonField
          id={`refund-reason-${teamId}`}
          label={`Reason (required, ${MIN}–${MAX} characters; sent to the entrant)`}
          value={reason}
          maxLength={MAX}
          placeholder="Paid twice for the same team."
          onChange={setReason}
        />
        {trimmed.length > 0 && trimmed.length < MIN && (
          <p className="text-sm text-destructive">The reason must be at least {MIN} characters.</p>
        )}
      </Dialog>
    </>
  );
}
