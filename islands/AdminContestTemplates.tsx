import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field } from "@/components/admin/Field.tsx";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { toast } from "@/lib/client/toast.ts";
import { DEFAULT_OPERATOR_SHARE_PERCENT } from "@/lib/domain/formats.ts";
import type { ContestTemplate, PoolMode } from "@/lib/domain/types.ts";

/** The match or the round (one of them) the contests are made for. */
export type AdminContestTemplatesProps = { matchId: number; roundId?: undefined } | {
  roundId: number;
  matchId?: undefined;
  /** The round's name, in the card's title. */
  roundName?: string;
};

const TEMPLATES: { value: ContestTemplate; label: string; hint: string }[] = [
  { value: "HEAD_TO_HEAD", label: "Head-to-Head", hint: "2 entries, the winner takes the pool" },
  { value: "FIFTY_FIFTY", label: "50/50", hint: "the top half share the pool equally" },
  { value: "TOURNAMENT", label: "Tournament", hint: "about the top 20% paid, in tiers" },
  { value: "PRIVATE", label: "Private", hint: "not in the lobby, entered by its link" },
];

interface Draft {
  chosen: ContestTemplate[];
  entryFee: string;
  pool: PoolMode;
  share: string;
  prizePool: string;
  fiftyFiftyEntries: string;
}

/** The API body of a draft: one template per chosen format, sharing the fee and the pool. */
function bodyOf(target: { matchId: number } | { roundId: number }, d: Draft) {
  const pool = d.pool === "GROWING"
    ? { pool: d.pool, operatorSharePercent: Number(d.share) }
    : { pool: d.pool, prizePool: Number(d.prizePool) };
  return {
    ...target,
    entryFee: Number(d.entryFee),
    templates: d.chosen.map((format) => ({
      format,
      ...pool,
      ...(format === "FIFTY_FIFTY" ? { maxEntries: Number(d.fiftyFiftyEntries) } : {}),
    })),
  };
}

/**
 * "Create contests for this match": the admin ticks the formats, sets the fee and the pool (growing
 * with the operator's share, or guaranteed), and the competitions are made in one request.
 */
export default function AdminContestTemplates(props: AdminContestTemplatesProps) {
  const target = props.roundId !== undefined
    ? { roundId: props.roundId }
    : { matchId: props.matchId };
  const onRound = props.roundId !== undefined;
  const [draft, setDraft] = useState<Draft>({
    chosen: ["HEAD_TO_HEAD", "FIFTY_FIFTY", "TOURNAMENT"],
    entryFee: "5",
    pool: "GROWING",
    share: String(DEFAULT_OPERATOR_SHARE_PERCENT),
    prizePool: "100",
    fiftyFiftyEntries: "10",
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const toggle = (t: ContestTemplate) =>
    set({
      chosen: draft.chosen.includes(t)
        ? draft.chosen.filter((c) => c !== t)
        : TEMPLATES.map((x) => x.value).filter((v) => v === t || draft.chosen.includes(v)),
    });
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const made = await adminFetch<{ name: string }[]>("/api/admin/contests-from-templates", {
        method: "POST",
        body: bodyOf(target, draft),
      });
      toast({
        title: "Contests Created",
        description: `Created ${made.length}: ${made.map((c) => c.name).join(", ")}`,
      });
    } catch (err) {
      setError(errorText(err, "Failed to create the contests"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mx-auto mt-6 max-w-3xl" data-contest-templates="">
      <CardHeader>
        <CardTitle>
          {onRound ? "Create contests for this round" : "Create contests for this match"}
          {onRound && props.roundName ? `: ${props.roundName}` : ""}
        </CardTitle>
        <CardDescription>
          {onRound
            ? "Each format becomes a competition on the whole round, open until its first kick-off, with every club's players. "
            : "Each format becomes a competition on this match, open until kick-off, with the match's players. "}
          A head-to-head or 50/50 that has not filled by then is cancelled and refunded.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-medium">Formats</legend>
          {TEMPLATES.map((t) => (
            <label key={t.value} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.chosen.includes(t.value)}
                onChange={() => toggle(t.value)}
                className="mt-1"
              />
              <span>
                <span className="font-medium">{t.label}</span>
                <span className="block text-xs text-muted-foreground">{t.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="templates-fee" label="Entry fee">
            <Input
              id="templates-fee"
              type="number"
              min="0.5"
              step="0.01"
              value={draft.entryFee}
              onChange={(e) => set({ entryFee: e.currentTarget.value })}
            />
          </Field>
          <Field id="templates-pool" label="Prize pool">
            <Select
              id="templates-pool"
              value={draft.pool}
              onChange={(e) => set({ pool: e.currentTarget.value as PoolMode })}
            >
              <option value="GROWING">Grows with entries</option>
              <option value="GUARANTEED">Guaranteed</option>
            </Select>
          </Field>
          {draft.pool === "GROWING"
            ? (
              <Field id="templates-share" label="Operator's share (%)">
                <Input
                  id="templates-share"
                  type="number"
                  min="0"
                  max="50"
                  step="0.5"
                  value={draft.share}
                  onChange={(e) => set({ share: e.currentTarget.value })}
                />
              </Field>
            )
            : (
              <Field id="templates-prize-pool" label="Guaranteed prize pool">
                <Input
                  id="templates-prize-pool"
                  type="number"
                  min="0.01"
                  step="0.01"
                  value={draft.prizePool}
                  onChange={(e) => set({ prizePool: e.currentTarget.value })}
                />
              </Field>
            )}
          {draft.chosen.includes("FIFTY_FIFTY") && (
            <Field id="templates-fifty" label="50/50 entries">
              <Input
                id="templates-fifty"
                type="number"
                min="2"
                step="1"
                value={draft.fiftyFiftyEntries}
                onChange={(e) =>
                  set({ fiftyFiftyEntries: e.currentTarget.value })}
              />
            </Field>
          )}
        </div>
        {error && <p role="alert" className="text-sm font-medium text-destructive">{error}</p>}
        <Button onClick={() => void submit()} disabled={busy || draft.chosen.length === 0}>
          {busy ? "Creating…" : "Create contests for this match"}
        </Button>
      </CardContent>
    </Card>
  );
}
