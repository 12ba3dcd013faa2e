import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../components/ui/Card.tsx";
import { PageHeader } from "../components/admin/PageHeader.tsx";
import { Icon } from "../components/admin/Icons.tsx";
import { MatchFields } from "../components/admin/MatchFields.tsx";
import { TeamPlayersDialog } from "../components/admin/TeamPlayersDialog.tsx";
import { BackButton } from "../components/admin/BackButton.tsx";
import {
  EmptyState,
  ErrorState,
  NotFoundState,
  TableSkeleton,
} from "../components/admin/States.tsx";
import { adminFetch, errorText, isNotFound } from "../lib/ui/admin/admin_api.ts";
import { ApiError } from "../lib/ui/api.ts";
import { navigateWithToast } from "../lib/ui/admin/flash.ts";
import { useAdminData } from "../lib/ui/admin/use_admin_data.ts";
import { localTimeZone } from "../lib/ui/admin/datetime.ts";
import { useMounted } from "../lib/ui/use_mounted.ts";
import { type FieldErrors, issuesToErrors } from "../lib/ui/form_errors.ts";
import {
  defaultMatchValues,
  type MatchFormValues,
  matchPayload,
  matchToValues,
  validateMatch,
} from "../lib/ui/admin/match_form.ts";
import { createSampleTeams, missingSampleTeams } from "../lib/ui/admin/teams.ts";
import { toastError } from "../lib/ui/toast.ts";
import type { Team } from "../lib/domain/types.ts";
import type { MatchWithTeams } from "../lib/ui/admin/types.ts";

const LIST = "/admin/matches";

function TeamPlayers(props: { home?: Team; away?: Team; onOpen: (t: Team) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Team Players</CardTitle>
        <CardDescription>Add or edit the real players of the two teams.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          disabled={!props.home}
          onClick={() => props.home && props.onOpen(props.home)}
        >
          <Icon name="users" />Manage Home Team Players
        </Button>
        <Button
          variant="outline"
          disabled={!props.away}
          onClick={() => props.away && props.onOpen(props.away)}
        >
          <Icon name="users" />Manage Away Team Players
        </Button>
      </CardContent>
    </Card>
  );
}

/** Create or edit a match; in edit mode the scores set the result. */
export default function AdminMatchForm({ id }: { id?: number }) {
  const editing = id !== undefined;
  const teams = useAdminData<Team[]>("/api/admin/teams");
  const existing = useAdminData<MatchWithTeams>(editing ? `/api/admin/matches/${id}` : null);
  const [values, setValues] = useState<MatchFormValues | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [creatingTeams, setCreatingTeams] = useState(false);
  const [dialogTeam, setDialogTeam] = useState<Team | null>(null);
  const mounted = useMounted();
  const timeZone = mounted ? localTimeZone() : "";

  useEffect(() => {
    if (!editing) setValues(defaultMatchValues());
  }, []);
  useEffect(() => {
    if (existing.data) setValues(matchToValues(existing.data));
  }, [existing.data]);

  const sampleTeams = async () => {
    setCreatingTeams(true);
    if (await createSampleTeams(teams.data ?? [])) await teams.reload();
    setCreatingTeams(false);
  };

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
      navigateWithToast(LIST, {
        title: editing ? "Match Updated" : "Match Created",
        description: "The match has been saved.",
      });
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError) setErrors(issuesToErrors(err.issues));
      toastError(errorText(err, editing ? "Failed to update match" : "Failed to create match"));
    }
  };

  const teamList = [...(teams.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const byId = (v: string) => teamList.find((t) => String(t.id) === v);
  const title = editing ? "Edit Match" : "New Match";
  const failed = teams.error ?? existing.error;

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageHeader
        title={title}
        description="Fixtures that competitions are built on."
        actions={
          <>
            {!editing && teamList.length > 0 && missingSampleTeams(teamList).length > 0 && (
              <Button
                variant="outline"
                disabled={creatingTeams}
                onClick={() => void sampleTeams()}
              >
                <Icon name="plus" />
                {creatingTeams ? "Creating..." : "Create Sample Teams"}
              </Button>
            )}
            <BackButton href={LIST}>Back to Matches</BackButton>
          </>
        }
      />
      {isNotFound(existing.error) && (
        <NotFoundState
          title="Match Not Found"
          description="The match may have been deleted."
          href={LIST}
          label="Back to Matches"
        />
      )}
      {failed && !isNotFound(existing.error) && (
        <ErrorState
          message={errorText(failed, editing ? "Failed to load the match" : "Failed to load teams")}
        />
      )}
      {!failed && (!values || !teams.data) && <TableSkeleton rows={6} label="Loading match" />}
      {!failed && teams.data && teams.data.length === 0 && (
        <EmptyState
          title="No teams yet."
          description="A match needs two teams. Create four sample Premier League teams to get started."
          action={
            <Button disabled={creatingTeams} onClick={() => void sampleTeams()}>
              {creatingTeams ? "Creating..." : "Create Sample Teams"}
            </Button>
          }
        />
      )}
      {!failed && values && teamList.length > 0 && (
        <>
          <form onSubmit={submit} noValidate>
            <Card>
              <CardHeader>
                <CardTitle className="text-base">Match details</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-col gap-6">
                <MatchFields
                  values={values}
                  errors={errors}
                  teams={teamList}
                  editing={editing}
                  timeZone={timeZone}
                  onChange={(patch) => setValues({ ...values, ...patch })}
                />
                <div className="flex justify-end gap-2">
                  <Button variant="outline" href={LIST}>Cancel</Button>
                  <Button type="submit" disabled={saving}>
                    <Icon name="save" />
                    {saving ? "Saving..." : editing ? "Update Match" : "Create Match"}
                  </Button>
                </div>
              </CardContent>
            </Card>
          </form>
          <TeamPlayers
            home={byId(values.homeTeamId)}
            away={byId(values.awayTeamId)}
            onOpen={setDialogTeam}
          />
        </>
      )}
      {dialogTeam && <TeamPlayersDialog team={dialogTeam} onClose={() => setDialogTeam(null)} />}
    </div>
  );
}
