import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field, fieldAria, type FieldChange } from "./Field.tsx";
import { EVENT_TYPES } from "@/lib/domain/types.ts";
import { eventLabel } from "@/lib/domain/scoring.ts";
import {
  createEvent,
  EMPTY_EVENT,
  type EventFormValues,
  validateEvent,
} from "@/lib/client/admin/game_events.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

export interface EventFormProps {
  competitionId: number;
  players: PlayerWithTeam[];
  live: boolean;
  onCreated: () => void;
}

/** The create-event form: player, event type, minute and an optional description. */
export function EventForm({ competitionId, players, live, onCreated }: EventFormProps) {
  const [values, setValues] = useState<EventFormValues>(EMPTY_EVENT);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const bind = (key: keyof EventFormValues) => ({
    ...fieldAria(`event-${key}`, errors[key]),
    name: key,
    value: values[key],
    disabled: !live || busy,
    onChange: (e: FieldChange) => setValues({ ...values, [key]: e.currentTarget.value }),
  });
  const sorted = [...players].sort((a, b) =>
    (a.team?.name ?? "").localeCompare(b.team?.name ?? "") || a.name.localeCompare(b.name)
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!live) return;
    const problems = validateEvent(values);
    setErrors(problems ?? {});
    if (problems) return;
    setBusy(true);
    const ok = await createEvent(competitionId, values);
    setBusy(false);
    if (!ok) return;
    setValues({ ...EMPTY_EVENT, eventType: values.eventType });
    onCreated();
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-disabled={!live}>
      {!live && (
        <p
          role="note"
          className="rounded-md border border-border bg-muted px-3 py-2 text-sm text-muted-foreground"
        >
          Competition is not LIVE. Events should only be created for live competitions.
        </p>
      )}
      <Field id="event-playerId" label="Player" error={errors.playerId}>
        <Select {...bind("playerId")}>
          <option value="">Select player</option>
          {sorted.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name} ({p.position}, {p.team?.shortName ?? "—"})
            </option>
          ))}
        </Select>
      </Field>
      <Field id="event-eventType" label="Event Type" error={errors.eventType}>
        <Select {...bind("eventType")}>
          <option value="">Select event type</option>
          {EVENT_TYPES.map((t) => <option key={t} value={t}>{eventLabel(t)}</option>)}
        </Select>
      </Field>
      <Field id="event-minute" label="Minute" error={errors.minute} hint="Optional.">
        <Input {...bind("minute")} type="number" min="0" max="130" step="1" inputMode="numeric" />
      </Field>
      <Field id="event-description" label="Description" error={errors.description} hint="Optional.">
        <Input {...bind("description")} placeholder="e.g. Header from a corner" />
      </Field>
      <Button type="submit" disabled={!live || busy}>
        {busy ? "Creating..." : "Create Event"}
      </Button>
    </form>
  );
}
