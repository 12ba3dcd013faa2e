import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/Card.tsx";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { Icon } from "@/components/admin/Icons.tsx";
import { MatchFields } from "@/components/admin/MatchFields.tsx";
import { TeamPlayersCard } from "@/components/admin/TeamPlayersCard.tsx";
import { TeamPlayersDialog } from "@/components/admin/TeamPlayersDialog.tsx";
import { BackButton } from "@/components/admin/BackButton.tsx";
import {
  EmptyState,
  ErrorState,
  NotFoundState,
  TableSkeleton,
} from "@/components/admin/States.tsx";
import { errorText, isNotFound } from "@/lib/client/admin/admin_api.ts";
import { localTimeZone } from "@/lib/client/admin/datetime.ts";
import { offersSampleTeams } from "@/lib/client/admin/teams.ts";
import {
  MATCH_LIST as LIST,
  useMatchForm,
  useSampleTeams,
} from "@/lib/client/admin/use_match_form.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";
import type { Team } from "@/lib/domain/types.ts";

/** Create or edit a match; in edit mode the scores set the result. */
export default function AdminMatchForm({ id }: { id?: number }) {
  const { editing, teams, existing, values, setValues, errors, saving, submit } = useMatchForm(id);
  const { creatingTeams, sampleTeams } = useSampleTeams(teams);
  const [dialogTeam, setDialogTeam] = useState<Team | null>(null);
  const mounted = useMounted();
  const timeZone = mounted ? localTimeZone() : "";

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
      {!failed && teams.data && offersSampleTeams(teams.data) && (
        <EmptyState
          title="No teams yet."
          description="A match needs two teams. Create four sample Premier League teams to get started, or add clubs on the Clubs screen."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <Button disabled={creatingTeams} onClick={() => void sampleTeams()}>
                {creatingTeams ? "Creating..." : "Create Sample Teams"}
              </Button>
              <Button variant="outline" href="/admin/clubs">Clubs</Button>
            </div>
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
          <TeamPlayersCard
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
