import { type FormEvent, useEffect, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { CompetitionFields } from "@/components/admin/CompetitionFields.tsx";
import { ErrorState, TableSkeleton } from "@/components/admin/States.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import { CompetitionNotFound } from "@/components/admin/CompetitionNotFound.tsx";
import { StatusConfirmDialog } from "@/components/admin/StatusConfirmDialog.tsx";
import { adminFetch, errorText, isNotFound } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import { navigateWithToast } from "@/lib/client/admin/flash.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { localTimeZone } from "@/lib/client/admin/datetime.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";
import {
  type CompetitionFormValues,
  competitionPayload,
  competitionToValues,
  defaultCompetitionValues,
  validateCompetition,
} from "@/lib/client/admin/competition_form.ts";
import { toastError } from "@/lib/client/toast.ts";
import type { Competition } from "@/lib/domain/types.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";
import type { AdminRound } from "@/lib/client/admin/rounds.ts";

export interface AdminCompetitionFormProps {
  /** The competition to edit; absent for a new one. */
  id?: number;
}

const DASHBOARD = "/admin/dashboard";

/** Create or edit a competition; saving returns to the dashboard. */
export default function AdminCompetitionForm({ id }: AdminCompetitionFormProps) {
  const editing = id !== undefined;
  const matches = useAdminData<MatchWithTeams[]>("/api/admin/matches");
  const rounds = useAdminData<AdminRound[]>("/api/admin/rounds");
  const existing = useAdminData<Competition>(editing ? `/api/admin/competitions/${id}` : null);
  const [values, setValues] = useState<CompetitionFormValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  /** The server's reason to confirm the status change (409 with a `force` issue), or null. */
  const [confirming, setConfirming] = useState<string | null>(null);
  const mounted = useMounted();
  const timeZone = mounted ? localTimeZone() : "";

  useEffect(() => {
    if (!editing) setValues(defaultCompetitionValues());
  }, []);
  useEffect(() => {
    if (existing.data) setValues(competitionToValues(existing.data));
  }, [existing.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };

  const save = async (confirmation?: { force: true; reason: string }) => {
    if (!values) return;
    const problems = validateCompetition(values);
    setErrors(problems ?? {});
    if (problems) {
      document.getElementById(
        Object.keys(problems)[0] === "deadline" ? "deadlineDate" : Object.keys(problems)[0],
      )?.focus();
      return;
    }
    setSaving(true);
    try {
      await adminFetch(editing ? `/api/admin/competitions/${id}` : "/api/admin/competitions", {
        method: editing ? "PUT" : "POST",
        body: { ...competitionPayload(values), ...confirmation },
      });
      navigateWithToast(DASHBOARD, {
        title: editing ? "Competition Updated" : "Competition Created",
        description: `${values.name.trim()} has been saved.`,
      });
    } catch (err) {
      setSaving(false);
      const force = err instanceof ApiError && err.status === 409
        ? err.issues.find((issue) => issue.path[0] === "force")
        : undefined;
      if (force) return setConfirming(force.message);
      setConfirming(null);
      if (err instanceof ApiError) setErrors(issuesToErrors(err.issues));
      toastError(
        errorText(err, editing ? "Failed to update competition" : "Failed to create competition"),
      );
    }
  };

  const title = editing ? "Edit Competition" : "New Competition";
  const back = <BackButton href={DASHBOARD}>Back</BackButton>;

  if (editing && existing.error) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeader title={title} actions={back} />
        {isNotFound(existing.error)
          ? <CompetitionNotFound />
          : <ErrorState message={errorText(existing.error, "Failed to load the competition")} />}
      </div>
    );
  }

  return (
    <form className="mx-auto flex max-w-4xl flex-col gap-6" onSubmit={submit} noValidate>
      <PageHeader
        title={title}
        description={editing
          ? "Changes show on the public pages as soon as they are saved."
          : "Set up a competition that visitors can enter."}
        actions={back}
      />
      <div className="sticky top-2 z-20 flex items-center justify-between gap-4 rounded-lg border border-border bg-card px-4 py-3 shadow-sm">
        <p className="truncate text-sm text-muted-foreground">
          {values?.name.trim() || "Untitled competition"}
        </p>
        <div className="flex shrink-0 gap-2">
          <Button variant="outline" href={DASHBOARD}>Cancel</Button>
          <Button type="submit" disabled={!values || saving}>
            <Icon name="save" />
            {saving ? "Saving..." : editing ? "Update Competition" : "Create Competition"}
          </Button>
        </div>
      </div>
      {!values && <TableSkeleton rows={8} label="Loading competition" />}
      {values && (
        <CompetitionFields
          values={values}
          errors={errors}
          matches={matches.data ?? []}
          rounds={rounds.data ?? []}
          timeZone={timeZone}
          onChange={(patch) => setValues((now) => now && { ...now, ...patch })}
        />
      )}
      <StatusConfirmDialog
        message={confirming}
        status={values?.status ?? ""}
        busy={saving}
        onConfirm={(reason) => save({ force: true, reason })}
        onClose={() => setConfirming(null)}
      />
    </form>
  );
}
