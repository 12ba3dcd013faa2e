import { useEffect, useState } from "react";
import { Badge, type BadgeVariant } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { toast, toastError } from "@/lib/client/toast.ts";

/** A message as `GET /api/admin/outbox` sends it (lib/db/outbox.ts `OutboxView`). */
interface OutboxView {
  id: number;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  state: "kept" | "waiting" | "sent" | "bounced";
  attempts: number;
}

const STATE_TEXT: Record<OutboxView["state"], [string, BadgeVariant]> = {
  kept: ["Kept in the outbox (no mail server)", "secondary"],
  waiting: ["Waiting for the mail server", "outline"],
  sent: ["Sent", "success"],
  bounced: ["Address bounced", "destructive"],
};

function Message({ message, onResent }: { message: OutboxView; onResent: () => void }) {
  const [busy, setBusy] = useState(false);
  const [label, variant] = STATE_TEXT[message.state];
  const resend = async () => {
    setBusy(true);
    try {
      await adminFetch(`/api/admin/outbox/${message.id}/resend`, { method: "POST" });
      toast({ title: "E-mail sent again", description: `${message.subject} → ${message.to}` });
      onResent();
    } catch (err) {
      toastError(errorText(err, "The e-mail could not be sent again."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 text-sm"
      data-outbox-message={message.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-words font-semibold">{message.subject}</p>
          <p className="text-xs text-muted-foreground">
            {formatAdminDate(message.createdAt)} · to {message.to}
          </p>
        </div>
        <Badge variant={variant} data-outbox-state={message.state}>
          {label}
          {message.state === "waiting" && message.attempts > 0
            ? ` (${message.attempts} ${message.attempts === 1 ? "try" : "tries"})`
            : ""}
        </Badge>
      </div>
      <details>
        <summary className="cursor-pointer text-xs font-medium text-primary">
          Show the message
        </summary>
        <pre className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-xs">
          {message.text}
        </pre>
      </details>
      <div>
        <Button size="sm" variant="outline" disabled={busy} onClick={() => void resend()}>
          {busy ? "Sending…" : "Resend"}
        </Button>
      </div>
    </li>
  );
}

/**
 * Outbox: what was e-mailed to one address, when, and whether it went (confirmations, league
 * codes, reminders, prize links), each with a Resend. The address is kept in the page's address
 * (`?to=`), so a support ticket can link the search.
 */
export default function AdminOutbox() {
  const [draft, setDraft] = useState("");
  const [to, setTo] = useState<string | null>(null);
  useEffect(() => {
    const asked = new URL(location.href).searchParams.get("to");
    if (asked) {
      setDraft(asked);
      setTo(asked);
    }
  }, []);
  const found = useAdminData<{ messages: OutboxView[] }>(
    to ? `/api/admin/outbox?to=${encodeURIComponent(to)}` : null,
  );
  const search = () => {
    const address = draft.trim();
    if (!address) return;
    history.replaceState(null, "", `/admin/outbox?to=${encodeURIComponent(address)}`);
    setTo(address);
  };
  const messages = found.data?.messages ?? null;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Outbox"
        description="The e-mails the app wrote to an address: when, whether they went, and what they said."
        actions={<Button variant="outline" href="/admin/dashboard">Back to Dashboard</Button>}
      />
      <form
        className="flex flex-wrap items-end gap-2"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <div className="flex min-w-[16rem] flex-1 flex-col gap-2 sm:flex-none">
          <Label htmlFor="outbox-to">Recipient e-mail</Label>
          <Input
            id="outbox-to"
            type="email"
            value={draft}
            placeholder="jane@example.com"
            onChange={(e) => setDraft(e.currentTarget.value)}
          />
        </div>
        <Button type="submit" disabled={!draft.trim()}>Search</Button>
      </form>
      {to === null && (
        <EmptyState
          title="Search by address"
          description="Enter the e-mail address a person gave: their confirmations, league codes, reminders and prize links appear here."
        />
      )}
      {to !== null && found.loading && !messages && <TableSkeleton label="Loading the e-mails" />}
      {to !== null && found.error && !messages && (
        <ErrorState message={errorText(found.error, "Failed to load the e-mails.")} />
      )}
      {messages && messages.length === 0 && (
        <EmptyState
          title={`No e-mail to ${to}.`}
          description="Check the spelling of the address."
        />
      )}
      {messages && messages.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={`E-mails to ${to}`}>
          {messages.map((m) => (
            <Message
              key={m.id}
              message={m}
              onResent={() => void found.reload()}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
