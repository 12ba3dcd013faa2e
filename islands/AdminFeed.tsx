import { useState } from "react";
import { Badge, type BadgeVariant } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Card } from "@/components/ui/Card.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { EmptyState, ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import type { FeedLogEntry, FeedProvider as Provider } from "@/lib/domain/feed.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";

/** A delivery as the API sends it: with its match's and player's names. */
type Delivery = FeedLogEntry & { matchLabel?: string; playerName?: string | null };

interface FeedState {
  providers: Provider[];
  recent: Delivery[];
  refused: Delivery[];
}

const OUTCOME_VARIANT: Record<string, BadgeVariant> = {
  APPLIED: "success",
  WITHDRAWN: "secondary",
  DUPLICATE: "outline",
  IGNORED: "outline",
  REFUSED: "destructive",
};

function Deliveries({ rows, label }: { rows: Delivery[]; label: string }) {
  if (rows.length === 0) return <EmptyState title="Nothing yet." description="" />;
  return (
    <ul className="flex flex-col gap-2" aria-label={label}>
      {rows.map((d) => (
        <li
          key={d.id}
          className="flex flex-col gap-1 rounded-lg border border-border bg-background p-3 text-sm"
        >
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={OUTCOME_VARIANT[d.outcome] ?? "outline"}>{d.outcome}</Badge>
            <span className="font-medium">{d.type}</span>
            <span className="text-muted-foreground">
              {d.matchLabel ?? `match ${d.matchId}`}
              {d.playerId ? ` · ${d.playerName ?? `player ${d.playerId}`}` : ""}
              {d.minute !== null ? ` · ${d.minute}'` : ""}
            </span>
          </div>
          <span className="break-all text-xs text-muted-foreground">
            {d.provider} · {d.eventId}
            {d.version > 1 ? ` v${d.version}` : ""} · {formatAdminDate(d.receivedAt)}
          </span>
          {d.reason && <span className="text-destructive">{d.reason}</span>}
        </li>
      ))}
    </ul>
  );
}

function ProviderCard(
  { provider, onChange }: { provider: Provider; onChange: () => Promise<void> },
) {
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = async (what: "rotate" | "retire") => {
    setBusy(true);
    try {
      await adminFetch(`/api/admin/feed/providers/${provider.name}/${what}`, { method: "POST" });
      toast({
        title: what === "rotate" ? "Secret rotated" : "Previous secret retired",
        description: what === "rotate"
          ? "Both secrets are valid until you retire the previous one."
          : "Only the current secret is valid now.",
      });
      setShown(what === "rotate");
      await onChange();
    } catch (err) {
      toastError(errorText(err, "The provider could not be changed."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{provider.name}</h3>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => setShown(!shown)}>
            {shown ? "Hide secrets" : "Show secrets"}
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void act("rotate")}>
            Rotate secret
          </Button>
          {provider.secrets.length > 1 && (
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              onClick={() => void act("retire")}
            >
              Retire previous
            </Button>
          )}
        </div>
      </div>
      <ul className="flex flex-col gap-1 text-sm">
        {provider.secrets.map((s, i) => (
          <li key={s.createdAt + i} className="flex flex-col">
            <span className="text-muted-foreground">
              {i === 0 ? "Current" : "Previous (still valid)"} · since{" "}
              {formatAdminDate(s.createdAt)}
            </span>
            <code className="break-all font-mono text-xs">
              {shown ? s.secret : "•".repeat(16)}
            </code>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Feed page: the providers and their secrets (rotation), the last deliveries, refused ones. */
export default function AdminFeed() {
  const feed = useAdminData<FeedState>("/api/admin/feed");
  const [name, setName] = useState("");
  const [adding, setAdding] = useState(false);
  const add = async () => {
    setAdding(true);
    try {
      await adminFetch("/api/admin/feed/providers", { method: "POST", body: { name } });
      toast({ title: "Provider added", description: `Give ${name} its secret to sign with.` });
      setName("");
      await feed.reload();
    } catch (err) {
      toastError(errorText(err, "The provider could not be added."));
    } finally {
      setAdding(false);
    }
  };
  const data = feed.data;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Live Feed"
        description="Events a data provider posts to /api/feed/events, signed with its secret."
        actions={
          <>
            <Button variant="outline" onClick={() => void feed.reload()}>Refresh</Button>
            <Button variant="outline" href="/admin/dashboard">Back to Dashboard</Button>
          </>
        }
      />
      {feed.loading && !data && <TableSkeleton label="Loading the feed" />}
      {feed.error && !data
        ? <ErrorState message="Failed to load the feed. Please try again." />
        : null}
      {data && (
        <>
          <section className="flex flex-col gap-3" aria-labelledby="providers-heading">
            <h2 id="providers-heading" className="text-lg font-semibold">Providers</h2>
            {data.providers.map((p) => (
              <ProviderCard key={p.name} provider={p} onChange={feed.reload} />
            ))}
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                void add();
              }}
            >
              <div className="flex flex-col gap-2">
                <Label htmlFor="provider-name">New provider</Label>
                <Input
                  id="provider-name"
                  value={name}
                  placeholder="e.g. opta"
                  onChange={(e) => setName(e.currentTarget.value)}
                />
              </div>
              <Button type="submit" disabled={adding || !name.trim()}>Add Provider</Button>
            </form>
          </section>
          <div className="grid gap-6 lg:grid-cols-2">
            <section className="flex flex-col gap-3" aria-labelledby="recent-heading">
              <h2 id="recent-heading" className="text-lg font-semibold">Last events received</h2>
              <Deliveries rows={data.recent} label="Last events received" />
            </section>
            <section className="flex flex-col gap-3" aria-labelledby="refused-heading">
              <h2 id="refused-heading" className="text-lg font-semibold">Refused, for review</h2>
              <Deliveries rows={data.refused} label="Refused events" />
            </section>
          </div>
        </>
      )}
    </div>
  );
}
