import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field, fieldAria, type FieldChange } from "./Field.tsx";
import { leagueLabel } from "@/lib/domain/format.ts";
import { LEAGUES, type Team } from "@/lib/domain/types.ts";
import {
  type ClubFormValues,
  clubToValues,
  emptyClubValues,
  saveClub,
} from "@/lib/client/admin/clubs.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";

export interface ClubDialogProps {
  /** The club being edited, or null for a new one. */
  club: Team | null;
  onClose: () => void;
  onSaved: (club: Team) => void;
}

/** 'New Club' / 'Edit Club': name, short name, league and logo URL, checked as the server does. */
export function ClubDialog({ club, onClose, onSaved }: ClubDialogProps) {
  const [values, setValues] = useState<ClubFormValues>(
    club ? clubToValues(club) : emptyClubValues(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const bind = (key: keyof ClubFormValues) => ({
    ...fieldAria(`club-${key}`, errors[key]),
    name: key,
    value: values[key],
    onChange: (e: FieldChange) => {
      setValues({ ...values, [key]: e.currentTarget.value });
      if (errors[key]) setErrors({ ...errors, [key]: "" });
    },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const result = await saveClub(values, club?.id ?? null);
    setSaving(false);
    if ("club" in result) onSaved(result.club);
    else setErrors(result.errors);
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={club ? "Edit Club" : "New Club"}
      description="Clubs are the real teams players belong to and matches are played between."
    >
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
        <Field id="club-name" label="Club Name" error={errors.name} className="sm:col-span-2">
          <Input {...bind("name")} maxLength={100} />
        </Field>
        <Field id="club-shortName" label="Short Name" error={errors.shortName}>
          <Input {...bind("shortName")} maxLength={10} placeholder="e.g. ARS" />
        </Field>
        <Field id="club-league" label="League" error={errors.league}>
          <Select {...bind("league")}>
            {LEAGUES.map((l) => <option key={l} value={l}>{leagueLabel(l)}</option>)}
          </Select>
        </Field>
        <Field
          id="club-logoUrl"
          label="Logo URL"
          error={errors.logoUrl}
          hint="Optional. Without a logo the club's initial is shown."
          className="sm:col-span-2"
        >
          <Input {...bind("logoUrl")} type="url" placeholder="https://…" />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:col-span-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>Cancel</Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : club ? "Update Club" : "Create Club"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
