import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field, type FieldChange } from "./Field.tsx";
import { POSITIONS } from "@/lib/domain/types.ts";
import { POSITION_NAMES } from "@/lib/domain/format.ts";
import type { PlayerFormValues } from "@/lib/client/admin/player_form.ts";

export interface PlayerFormProps {
  initial: PlayerFormValues;
  editing: boolean;
  onSubmit: (values: PlayerFormValues) => Promise<boolean>;
  onCancel: () => void;
}

/** Add or edit one player of a team (name, position, salary, image and season stats). */
export function PlayerForm({ initial, editing, onSubmit, onCancel }: PlayerFormProps) {
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const bind = (key: keyof PlayerFormValues) => ({
    id: `player-${key}`,
    name: key,
    value: values[key],
    onChange: (e: FieldChange) => setValues({ ...values, [key]: e.currentTarget.value }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const ok = await onSubmit(values);
    setBusy(false);
    if (ok && !editing) setValues(initial);
  };
  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
      <Field id="player-name" label="Player Name" className="sm:col-span-2">
        <Input {...bind("name")} />
      </Field>
      <Field id="player-position" label="Position">
        <Select {...bind("position")}>
          <option value="">Select position</option>
          {POSITIONS.map((p) => <option key={p} value={p}>{POSITION_NAMES[p]} ({p})</option>)}
        </Select>
      </Field>
      <Field id="player-salary" label="Salary">
        <Input {...bind("salary")} type="number" min="100" step="0.01" />
      </Field>
      <Field id="player-imageUrl" label="Image URL" className="sm:col-span-2">
        <Input {...bind("imageUrl")} type="url" placeholder="https://…" />
      </Field>
      <div className="grid grid-cols-3 gap-4 sm:col-span-2">
        <Field id="player-goals" label="Goals">
          <Input {...bind("goals")} type="number" min="0" step="1" />
        </Field>
        <Field id="player-assists" label="Assists">
          <Input {...bind("assists")} type="number" min="0" step="1" />
        </Field>
        <Field id="player-cleanSheets" label="Clean Sheets">
          <Input {...bind("cleanSheets")} type="number" min="0" step="1" />
        </Field>
      </div>
      <div className="flex items-end justify-end gap-2 sm:col-span-2">
        {editing && <Button variant="outline" onClick={onCancel}>Cancel</Button>}
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : editing ? "Update Player" : "Add Player"}
        </Button>
      </div>
    </form>
  );
}
