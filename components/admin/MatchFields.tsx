import type { ChangeEvent } from "react";
import { Badge } from "@/components/ui/Badge.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field, fieldAria, type FieldChange } from "./Field.tsx";
import { LEAGUES, type Team } from "@/lib/domain/types.ts";
import { leagueLabel } from "@/lib/domain/format.ts";
import { matchBadge } from "@/lib/client/admin/labels.ts";
import { type MatchFormValues, outcomeOf } from "@/lib/client/admin/match_form.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";

export interface MatchFieldsProps {
  values: MatchFormValues;
  errors: FieldErrors;
  teams: Team[];
  editing: boolean;
  timeZone: string;
  onChange: (patch: Partial<MatchFormValues>) => void;
}

/** The match form's fields; in edit mode also the scores and the computed result. */
export function MatchFields(
  { values, errors, teams, editing, timeZone, onChange }: MatchFieldsProps,
) {
  const bind = (key: Exclude<keyof MatchFormValues, "postponed">, errorKey: string = key) => ({
    ...fieldAria(key, errors[errorKey]),
    name: key,
    value: values[key],
    onChange: (e: FieldChange) => onChange({ [key]: e.currentTarget.value }),
  });
  const teamOptions = [
    <option key="" value="">Select team</option>,
    ...teams.map((t) => <option key={t.id} value={String(t.id)}>{t.name}</option>),
  ];
  const badge = matchBadge(outcomeOf(values));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="homeTeamId" label="Home Team" error={errors.homeTeamId}>
        <Select {...bind("homeTeamId")}>{teamOptions}</Select>
      </Field>
      <Field id="awayTeamId" label="Away Team" error={errors.awayTeamId}>
        <Select {...bind("awayTeamId")}>{teamOptions}</Select>
      </Field>
      <Field id="league" label="League" error={errors.league}>
        <Select {...bind("league")}>
          {LEAGUES.map((l) => <option key={l} value={l}>{leagueLabel(l)}</option>)}
        </Select>
      </Field>
      <Field id="stadium" label="Stadium" error={errors.stadium}>
        <Input {...bind("stadium")} placeholder="e.g. Emirates Stadium" />
      </Field>
      <Field
        id="kickoffDate"
        label="Kickoff date"
        error={errors.kickoffTime}
        hint={`Your time zone: ${timeZone}`}
      >
        <Input {...bind("kickoffDate", "kickoffTime")} type="date" />
      </Field>
      <Field id="kickoffTime" label="Kickoff time">
        <Input {...bind("kickoffTime", "kickoffTime")} type="time" />
      </Field>
      {editing && (
        <>
          <Field
            id="homeScore"
            label="Home Score"
            error={errors.homeScore}
            hint="Leave blank until played."
          >
            <Input {...bind("homeScore")} type="number" min="0" step="1" />
          </Field>
          <Field id="awayScore" label="Away Score" error={errors.awayScore}>
            <Input {...bind("awayScore")} type="number" min="0" step="1" />
          </Field>
          <div className="flex items-start gap-3 sm:col-span-2">
            <input
              id="postponed"
              name="postponed"
              type="checkbox"
              className="mt-1 h-4 w-4 accent-primary"
              checked={values.postponed}
              onChange={(e: ChangeEvent<HTMLInputElement>) =>
                onChange({ postponed: e.currentTarget.checked })}
              aria-describedby="postponed-hint"
              {...(errors.status ? { "aria-invalid": true } : {})}
            />
            <div>
              <label htmlFor="postponed" className="text-sm font-medium">Postponed</label>
              <p id="postponed-hint" className="text-xs text-muted-foreground">
                The match is called off: its players score 0 and it takes no scores. Untick to play
                it (set the new kickoff time).
              </p>
              {errors.status && (
                <p className="text-xs text-destructive" role="alert">{errors.status}</p>
              )}
            </div>
          </div>
          <div className="flex items-center gap-3 sm:col-span-2" aria-live="polite">
            <span className="text-sm font-medium">Result</span>
            <Badge variant={badge.variant} data-result="">
              {badge.label}
            </Badge>
          </div>
        </>
      )}
    </div>
  );
}
