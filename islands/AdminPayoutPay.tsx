import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { toast } from "@/lib/client/toast.ts";

/** Records a prize's payment with its reference; the page reloads to show it paid. */
export default function AdminPayoutPay(
  { competitionId, entryId, label }: { competitionId: number; entryId: number; label: string },
) {
  const [reference, setReference] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await adminFetch(`/api/admin/payouts/${competitionId}/${entryId}/paid`, {
        method: "POST",
        body: { reference },
      });
      toast({ title: "Payout Recorded", description: `${label} is marked paid.` });
      location.reload();
    } catch (err) {
      toast({
        title: "Payout Not Recorded",
        description: errorText(err, "Failed to record the payout"),
        variant: "destructive",
      });
      setBusy(false);
    }
  };
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Input
        aria-label={`Payment reference for ${label}`}
        placeholder="Reference"
        value={reference}
        maxLength={100}
        className="h-8 w-32"
        onChange={(e) => setReference(e.currentTarget.value)}
      />
      <Button type="submit" size="sm" disabled={busy || !reference.trim()}>Mark paid</Button>
    </form>
  );
}
