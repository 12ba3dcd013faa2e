/** State of the match form island: the teams, the match being edited, the values and saving. */
import { type FormEvent, useEffect, useState } from "react";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { navigateWithToast } from "@/lib/client/admin/flash.ts";
import {
  defaultMatchValues,
  type MatchFormValues,
  matchPayload,
  matchToValues,
  validateMatch,
} from "@/lib/client/admin/match_form.ts";
import { createSampleTeams } from "@/lib/client/admin/teams.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";
import { type AdminData, useAdminData } from "@/lib/client/admin/use_admin_data.ts";
import { ApiError } from "@/lib/client/api.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";
import { toastError } from "@/lib/client/toast.ts";
import type { Team } from "@/lib/domain/types.ts";

/** Where the form goes back to, and lands after a save. */
export const MATCH_LIST = "/admin/matches";

/**
 * A new match (`id` undefined) or the match `id`: its values once loaded, field errors, and
 * `submit`, which validates, saves and goes back to the list with a toast.
 */
export function useMatchForm(id: number | undefined) {
  const editing = id !== undefined;
  const teams = useAdminData<Team[]>("/api/admin/teams");
  const existing = useAdminData<MatchWithTeams>(editing ? `/api/admin/matches/${id}` : null);
  const [values, setValues] = useState<MatchFormValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!editing) setValues(defaultMatchValues());
  }, []);
  useEffect(() => {
    if (existing.data) setValues(matchToValues(existing.data));
  }, [existing.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values) return;
    const problems = validateMatch(values);
    setErrors(problems ?? {});
    if (problems) return;
    setSaving(true);
    try {
      await adminFetch(editing ? `/api/admin/matches/${id}` : "/api/admin/matches", {
        method: editing ? "PUT" : "POST",
        body: matchPayload(values),
      });
      navigateWithToast(MATCH_LIST, {
        title: editing ? "Match Updated" : "Match Created",
        description: "The match has been saved.",
      });
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError) setErrors(issuesToErrors(err.issues));
      toastError(errorText(err, editing ? "Failed to update match" : "Failed to create match"));
    }
  };

  return { editing, teams, existing, values, setValues, errors, saving, submit };
}

/** 'Create Sample Teams': creates the missing ones, then reloads `teams`. */
export function useSampleTeams(teams: AdminData<Team[]>) {
  const [creatingTeams, setCreatingTeams] = useState(false);
  const sampleTeams = async () => {
    setCreatingTeams(true);
    if (await createSampleTeams(teams.data ?? [])) await teams.reload();
    setCreatingTeams(false);
  };
  return { creatingTeams, sampleTeams };
}
