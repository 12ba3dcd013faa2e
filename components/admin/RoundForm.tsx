import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Field, fieldAria } from "./Field.tsx";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";
import type { AdminRound } from "@/lib/client/admin/rounds.ts";
import { roundInputSchema } from "@/lib/domain/schemas/rounds.ts";

export interface RoundFormProps {
  /** The round edited, or null for a new one. */
  round: AdminRound | null;
  matches: MatchWithTeams[];
  busy: boolean;
  /** A refusal of the server to show under the matches. */
  serverError: string | null;
  onSave: (body: { name: string; matchIds: number[] }) => void;
  onCancel: () => void;
}

const fixtureText = (m: MatchWithTeams) =>
  `${m.homeTeam?.shortName ?? m.homeTeamId} v ${m.awayTeam?.shortName ?? m.awayTeamId}`;

/** A round's name and its matches (checkboxes over every match, by kick-off). */
export function RoundForm({ round, matches, busy, serverError, onSave, onCancel }: RoundFormProps) {
  const [name, setName] = useState(round?.name ?? "");
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(round?.matchIds ?? []));
  const [errors, setErrors] = useState<{ name?: string; matchIds?: string }>({});

  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const body = { name, matchIds: [...chosen] };
    const parsed = roundInputSchema.safeParse(body);
    if (!parsed.success) {
      const found: { name?: string; matchIds?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as "name" | "matchIds";
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    onSave(parsed.data);
  };

  return (
    <form
      className="grid gap-4 rounded-xl border border-border bg-card p-4 shadow-sm"
      onSubmit={submit}
      noValidate
      data-round-form=""
    >
      <h2 className="text-lg font-semibold">{round ? `Edit ${round.name}` : "New Round"}</h2>
      <Field id="round-name" label="Name" error={errors.name}>
        <Input
          {...fieldAria("round-name", errors.name)}
          value={name}
          placeholder="Premier League, Matchday 14"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </Field>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Matches</legend>
        {matches.length === 0 && (
          <p className="text-sm text-muted-foreground">No matches yet: create them first.</p>
        )}
        <div className="grid gap-1 sm:grid-cols-2">
          {matches.map((m) => (
            <label
              key={m.id}
              className="flex items-center gap-2 rounded-md border border-border px-3 py-2 text-sm"
            >
              <input
                type="checkbox"
                checked={chosen.has(m.id)}
                onChange={() => toggle(m.id)}
                data-round-match={m.id}
              />
              <span className="font-medium">{fixtureText(m)}</span>
              <span className="ml-auto text-xs text-muted-foreground">
                {formatAdminDate(m.kickoffTime)}
              </span>
            </label>
          ))}
        </div>
        {(errors.matchIds ?? serverError) && (
          <p role="alert" className="text-xs font-medium text-destructive">
            {errors.matchIds ?? serverError}
          </p>
        )}
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
        <Button type="submit" disabled={busy}>Save Round</Button>
      </div>
    </form>
  );
}
