import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { toast } from "@/lib/client/toast.ts";

/** Removes one league after a confirmation; the page reloads without it. */
export default function AdminLeagueRemove({ id, name }: { id: string; name: string }) {
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!confirm(`Remove the league "${name}"? Its entries stay in the contest.`)) return;
    setBusy(true);
    try {
      await adminFetch(`/api/admin/leagues/${encodeURIComponent(id)}`, { method: "DELETE" });
      toast({ title: "League Removed", description: `${name} has been removed.` });
      location.reload();
    } catch (err) {
      toast({
        title: "League Not Removed",
        description: errorText(err, "Failed to remove the league"),
        variant: "destructive",
      });
      setBusy(false);
    }
  };
  return (
    <Button
      variant="destructive"
      size="sm"
      onClick={remove}
      disabled={busy}
      aria-label={`Remove the league ${name}`}
    >
      Remove
    </Button>
  );
}
