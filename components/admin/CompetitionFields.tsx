import { type ChangeEvent, type ReactNode, useRef } from "react";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Field, fieldAria, type FieldChange } from "./Field.tsx";
import { COMPETITION_STATUSES, CURRENCIES, LEAGUES } from "@/lib/domain/types.ts";
import { leagueLabel } from "@/lib/domain/format.ts";
import { formatAdminDate } from "@/lib/client/admin/datetime.ts";
import {
  capForMatch,
  capUntouched,
  type CompetitionFormValues,
  deadlineWarning,
} from "@/lib/client/admin/competition_form.ts";
import { toLocalParts } from "@/lib/client/admin/datetime.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";
import type { MatchWithTeams, PlayerWithTeam } from "@/lib/client/admin/types.ts";
import { adminFetch } from "@/lib/client/admin/admin_api.ts";
import type { AdminRound } from "@/lib/client/admin/rounds.ts";

export interface CompetitionFieldsProps {
  values: CompetitionFormValues;
  errors: FieldErrors;
  matches: MatchWithTeams[];
  /** The rounds a contest can span. */
  rounds?: AdminRound[];
  timeZone: string;
  onChange: (patch: Partial<CompetitionFormValues>) => void;
}

type Key = Exclude<keyof CompetitionFormValues, "autoStatus" | "captains" | "lateSwap">;

/** A checkbox with its label and a hint beneath, across both columns. */
function CheckField(
  { id, label, checked, onChange, children }: {
    id: string;
    label: string;
    checked: boolean;
    onChange: (checked: boolean) => void;
    children: ReactNode;
  },
) {
  return (
    <div className="flex items-start gap-3 sm:col-span-2">
      <input
        id={id}
        type="checkbox"
        className="mt-1 h-4 w-4 accent-primary"
        checked={checked}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.checked)}
        aria-describedby={`${id}-hint`}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium">{label}</label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">{children}</p>
      </div>
    </div>
  );
}

function Section(props: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{props.title}</CardTitle>
        <CardDescription>{props.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">{props.children}</CardContent>
    </Card>
  );
}

function matchLabel(m: MatchWithTeams): string {
  const home = m.homeTeam?.name ?? `Team ${m.homeTeamId}`;
  const away = m.awayTeam?.name ?? `Team ${m.awayTeamId}`;
  return `${home} vs ${away} · ${formatAdminDate(m.kickoffTime)}`;
}

/** Every field of the competition form, grouped in cards. */
export function CompetitionFields(
  { values, errors, matches, rounds = [], timeZone, onChange }: CompetitionFieldsProps,
) {
  const bind = (key: Key, errorKey: string = key) => ({
    ...fieldAria(key, errors[errorKey]),
    name: key,
    value: values[key],
    onChange: (e: FieldChange) => onChange({ [key]: e.currentTarget.value }),
  });
  const lastSuggested = useRef<string | null>(null);
  // Choosing a match sets the league, moves the deadline to its kick-off and, unless the admin
  // typed a cap of their own, suggests one its players can be built under.
  const pickMatch = (e: ChangeEvent<HTMLSelectElement>) => {
    const matchId = e.currentTarget.value;
    const match = matches.find((m) => String(m.id) === matchId);
    if (!match) return onChange({ matchId });
    const kickoff = toLocalParts(match.kickoffTime);
    onChange({
      matchId,
      roundId: "",
      league: match.league,
      deadlineDate: kickoff.date,
      deadlineTime: kickoff.time,
    });
    if (!capUntouched(values.salaryCap, lastSuggested.current)) return;
    adminFetch<PlayerWithTeam[]>("/api/admin/players").then((players) => {
      const cap = capForMatch(values, match, players);
      if (cap === null) return;
      lastSuggested.current = String(cap);
      onChange({ salaryCap: String(cap) });
    }, () => {/* the default stays; the form still says when no team fits */});
  };
  // Choosing a round clears the match and moves the deadline to its first kick-off.
  const pickRound = (e: ChangeEvent<HTMLSelectElement>) => {
    const roundId = e.currentTarget.value;
    const round = rounds.find((r) => String(r.id) === roundId);
    if (!round || round.matches.length === 0) return onChange({ roundId });
    const kickoff = toLocalParts(round.matches[0].kickoffTime);
    onChange({
      roundId,
      matchId: "",
      league: round.matches[0].league,
      deadlineDate: kickoff.date,
      deadlineTime: kickoff.time,
    });
  };
  const chosen = matches.find((m) => String(m.id) === values.matchId);
  const lateDeadline = deadlineWarning(values, chosen?.kickoffTime ?? null);
  const num = { type: "number", inputMode: "decimal" } as const;

  return (
    <div className="flex flex-col gap-6">
      <Section title="Basics" description="What entrants see on the contest card.">
        <Field id="name" label="Name" error={errors.name}>
          <Input {...bind("name")} placeholder="e.g. Saturday Showdown" />
        </Field>
        <Field id="league" label="League" error={errors.league}>
          <Select {...bind("league")}>
            {LEAGUES.map((l) => <option key={l} value={l}>{leagueLabel(l)}</option>)}
          </Select>
        </Field>
        <Field
          id="matchId"
          label="Match"
          error={errors.matchId}
          className="sm:col-span-2"
          hint="Optional. Choosing a match also sets the league, and the deadline to its kick-off."
        >
          <Select {...bind("matchId")} onChange={pickMatch}>
            <option value="">No match</option>
            {matches.map((m) => <option key={m.id} value={String(m.id)}>{matchLabel(m)}</option>)}
          </Select>
        </Field>
        <Field
          id="roundId"
          label="Round"
          error={errors.roundId}
          className="sm:col-span-2"
          hint="Optional, instead of a match: the contest spans every match of the round, each pick locking at its own kick-off."
        >
          <Select {...bind("roundId")} onChange={pickRound}>
            <option value="">No round</option>
            {rounds.map((r) => <option key={r.id} value={String(r.id)}>{r.name}</option>)}
          </Select>
        </Field>
        {values.roundId !== "" && (
          <CheckField
            id="lateSwap"
            label="Late swap"
            checked={values.lateSwap}
            onChange={(checked) => onChange({ lateSwap: checked })}
          >
            After the deadline an entrant may still swap a pick whose match has not kicked off for a
            player whose match has not kicked off, through the edit link.
          </CheckField>
        )}
        <Field
          id="description"
          label="Description"
          error={errors.description}
          className="sm:col-span-2"
        >
          <textarea
            {...bind("description")}
            rows={3}
            className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 aria-[invalid=true]:border-destructive"
          />
        </Field>
        <Field
          id="imageUrl"
          label="Image URL"
          error={errors.imageUrl}
          className="sm:col-span-2"
          hint="Optional."
        >
          <Input {...bind("imageUrl")} type="url" placeholder="https://…" />
        </Field>
      </Section>

      <Section title="Entry and prizes" description="Money is entered in the competition currency.">
        <Field id="entryFee" label="Entry Fee" error={errors.entryFee}>
          <Input {...bind("entryFee")} {...num} min="0" step="0.01" />
        </Field>
        <Field id="prizePool" label="Prize Pool" error={errors.prizePool}>
          <Input {...bind("prizePool")} {...num} min="0" step="0.01" />
        </Field>
        <Field id="currency" label="Currency" error={errors.currency}>
          <Select {...bind("currency")}>
            {CURRENCIES.map((c) => <option key={c} value={c}>{c}</option>)}
          </Select>
        </Field>
        <Field id="prizeType" label="Prize Type" error={errors.prizeType}>
          <Select {...bind("prizeType")}>
            <option value="CASH">Cash</option>
            <option value="NON_CASH">Non-cash</option>
          </Select>
        </Field>
        {values.prizeType === "NON_CASH" && (
          <Field
            id="customPrizeDescription"
            label="Prize Description"
            error={errors.customPrizeDescription}
            className="sm:col-span-2"
          >
            <Input {...bind("customPrizeDescription")} placeholder="e.g. Signed match ball" />
          </Field>
        )}
        <Field
          id="maxEntries"
          label="Max Entries"
          error={errors.maxEntries}
          hint="Leave blank for unlimited."
        >
          <Input {...bind("maxEntries")} type="number" inputMode="numeric" min="1" step="1" />
        </Field>
        <Field
          id="minEntries"
          label="Min Entries"
          error={errors.minEntries}
          hint="Optional. Below it at the deadline, the contest is cancelled and refunded."
        >
          <Input {...bind("minEntries")} type="number" inputMode="numeric" min="1" step="1" />
        </Field>
        <Field
          id="maxEntriesPerPerson"
          label="Entries Per Person"
          error={errors.maxEntriesPerPerson}
          hint="How many teams one e-mail address may enter."
        >
          <Input
            {...bind("maxEntriesPerPerson")}
            type="number"
            inputMode="numeric"
            min="1"
            max="100"
            step="1"
          />
        </Field>
      </Section>

      <Section
        title="Schedule and status"
        description={`Times are in your time zone (${timeZone}).`}
      >
        <Field id="deadlineDate" label="Deadline date" error={errors.deadline}>
          <Input {...bind("deadlineDate", "deadline")} type="date" />
        </Field>
        <Field id="deadlineTime" label="Deadline time">
          <Input {...bind("deadlineTime", "deadline")} type="time" />
        </Field>
        {lateDeadline && (
          <p
            role="status"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 sm:col-span-2"
            data-deadline-warning=""
          >
            {lateDeadline}
          </p>
        )}
        <Field id="status" label="Status" error={errors.status}>
          <Select {...bind("status")}>
            {COMPETITION_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
          </Select>
        </Field>
        <CheckField
          id="autoStatus"
          label="Follow the clock"
          checked={values.autoStatus}
          onChange={(checked) => onChange({ autoStatus: checked })}
        >
          Goes LIVE at the match's kick-off and COMPLETED 30 minutes after its result is saved.
          Needs a match. A change by hand against the clock turns this off.
        </CheckField>
      </Section>

      <Section title="Team rules" description="Limits that every entrant's team must respect.">
        <Field id="maxPlayersPerTeam" label="Max Players Per Team" error={errors.maxPlayersPerTeam}>
          <Input {...bind("maxPlayersPerTeam")} type="number" min="1" max="5" step="1" />
        </Field>
        <Field id="maxForwards" label="Max Forwards" error={errors.maxForwards}>
          <Input {...bind("maxForwards")} type="number" min="0" max="5" step="1" />
        </Field>
        <Field id="minDefenders" label="Min Defenders" error={errors.minDefenders}>
          <Input {...bind("minDefenders")} type="number" min="0" max="5" step="1" />
        </Field>
        <Field id="salaryCap" label="Salary Cap" error={errors.salaryCap}>
          <Input {...bind("salaryCap")} type="number" min="1000" step="100" />
        </Field>
        <CheckField
          id="captains"
          label="Captain and vice-captain"
          checked={values.captains}
          onChange={(checked) => onChange({ captains: checked })}
        >
          Each team names a captain whose points count several times; the vice-captain takes over
          when the captain's match ends without him playing. Cannot change once the contest has
          entries.
        </CheckField>
        {values.captains && (
          <Field
            id="captainMultiplier"
            label="Captain Multiplier"
            error={errors.captainMultiplier}
            hint="From 1.5 to 3."
          >
            <Input {...bind("captainMultiplier")} type="number" min="1.5" max="3" step="0.1" />
          </Field>
        )}
      </Section>
    </div>
  );
}
