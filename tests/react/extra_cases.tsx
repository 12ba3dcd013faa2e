/**
 * Components no page renders on the server with props (admin screens load their data in the
 * browser; dialogs, forms and checkout steps appear after a click), rendered by render_all.tsx
 * with typical props: the seeded app's own API answers (`SeedData`, read by the test).
 */
import type { ReactElement } from "react";
import MyEntries from "@/islands/MyEntries.tsx";
import LeagueMembership from "@/islands/LeagueMembership.tsx";
import LeagueCreate from "@/islands/LeagueCreate.tsx";
import AdminLeagueRemove from "@/islands/AdminLeagueRemove.tsx";
import { YourLeagues } from "@/components/YourLeagues.tsx";
import { InviteLink } from "@/components/InviteLink.tsx";
import { ContestCardSkeleton } from "@/components/ContestCard.tsx";
import { Avatar } from "@/components/admin/Avatar.tsx";
import { CompetitionActions } from "@/components/admin/CompetitionActions.tsx";
import { CompetitionFields } from "@/components/admin/CompetitionFields.tsx";
import { CompetitionNotFound } from "@/components/admin/CompetitionNotFound.tsx";
import { CompetitionsTable } from "@/components/admin/CompetitionsTable.tsx";
import { EventForm } from "@/components/admin/EventForm.tsx";
import { EventList } from "@/components/admin/EventList.tsx";
import { Field } from "@/components/admin/Field.tsx";
import { MatchFields } from "@/components/admin/MatchFields.tsx";
import { MatchesTable } from "@/components/admin/MatchesTable.tsx";
import { ClubsTable } from "@/components/admin/ClubsTable.tsx";
import { RowActionButton, RowActionLink } from "@/components/admin/RowActions.tsx";
import { ClubDialog } from "@/components/admin/ClubDialog.tsx";
import { PerformanceRow } from "@/components/admin/PerformanceRow.tsx";
import { PerformanceTable } from "@/components/admin/PerformanceTable.tsx";
import { PlayerForm } from "@/components/admin/PlayerForm.tsx";
import { PlayerRowsTable } from "@/components/admin/PlayerRowsTable.tsx";
import { PlayersTab } from "@/components/admin/PlayersTab.tsx";
import { PrizeRows } from "@/components/admin/PrizeRows.tsx";
import { SalaryInput } from "@/components/admin/SalaryInput.tsx";
import { SignInNotice } from "@/components/admin/SignInNotice.tsx";
import { ErrorState, NotFoundState } from "@/components/admin/States.tsx";
import { Table, Td, Th, THead, Tr } from "@/components/admin/Table.tsx";
import { TeamName } from "@/components/admin/TeamName.tsx";
import { TeamPlayersCard } from "@/components/admin/TeamPlayersCard.tsx";
import { TeamPlayersDialog } from "@/components/admin/TeamPlayersDialog.tsx";
import { TeamDialog } from "@/components/TeamDialog.tsx";
import { InfoForm } from "@/components/checkout/InfoForm.tsx";
import { NotificationSettings } from "@/components/NotificationSettings.tsx";
import { InvalidCheckout } from "@/components/checkout/InvalidCheckout.tsx";
import { PaymentStep } from "@/components/checkout/PaymentStep.tsx";
import { PicksSummary } from "@/components/checkout/PicksSummary.tsx";
import { StepIndicator } from "@/components/checkout/StepIndicator.tsx";
import { StripePaymentForm } from "@/components/checkout/StripePaymentForm.tsx";
import { ClosedReason, TestCardForm } from "@/components/checkout/TestCardForm.tsx";
import { CheckoutFlow } from "@/components/checkout/CheckoutFlow.tsx";
import { builderFields } from "@/components/team/BuilderHeader.tsx";
import { TeamPlayerList } from "@/components/team/TeamPlayerList.tsx";
import { PlayerCard } from "@/components/team/PlayerCard.tsx";
import TeamEditor from "@/islands/TeamEditor.tsx";
import EditTeamLink from "@/islands/EditTeamLink.tsx";
import EntryNotifications from "@/islands/EntryNotifications.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Card, CardFooter } from "@/components/ui/Card.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import { Tabs } from "@/components/ui/Tabs.tsx";
import AdminLogin from "@/islands/AdminLogin.tsx";
import AdminPlayers from "@/islands/AdminPlayers.tsx";
import AdminRounds from "@/islands/AdminRounds.tsx";
import AdminOutbox from "@/islands/AdminOutbox.tsx";
import {
  EntriesPanel,
  PlayPanel,
  SessionPanel,
  SignInPanel,
} from "@/components/account/AccountPanels.tsx";
import type { AccountView } from "@/lib/api/account.ts";
import OwnTeamLink from "@/islands/OwnTeamLink.tsx";
import { RoundForm } from "@/components/admin/RoundForm.tsx";
import { Padlock } from "@/components/team/Padlock.tsx";
import { RoleBadge } from "@/components/team/RoleBadge.tsx";
import AdminPayoutPay from "@/islands/AdminPayoutPay.tsx";
import AdminRefundEntry from "@/islands/AdminRefundEntry.tsx";
import AdminContestTemplates from "@/islands/AdminContestTemplates.tsx";
import ClaimForm from "@/islands/ClaimForm.tsx";
import ShareButtons from "@/islands/ShareButtons.tsx";
import { SocialMeta } from "@/components/SocialMeta.tsx";
import { LedgerLegend, LedgerTable } from "@/components/admin/LedgerTable.tsx";
import { CompetitionLink } from "@/components/admin/CompetitionLink.tsx";
import { PaymentsTable } from "@/components/admin/PaymentsTable.tsx";
import type { Competition, Team } from "@/lib/domain/types.ts";
import { competitionToValues } from "@/lib/client/admin/competition_form.ts";
import { matchToValues } from "@/lib/client/admin/match_form.ts";
import { draftOf } from "@/lib/client/admin/performance_draft.ts";
import { playerToValues } from "@/lib/client/admin/player_form.ts";
import { ActivityTable } from "@/components/admin/ActivityTable.tsx";
import { ReasonField } from "@/components/admin/ReasonField.tsx";
import { StatusConfirmDialog } from "@/components/admin/StatusConfirmDialog.tsx";
import { usePlayerTable } from "@/lib/client/admin/player_table.ts";
import type {
  CompetitionRow,
  EventWithPlayer,
  MatchWithTeams,
  PerformanceRecord,
  PlayerWithTeam,
} from "@/lib/client/admin/types.ts";
import type { PaymentIntentAnswer } from "@/lib/client/checkout.ts";
import { type PickPlayer, toPickPlayer } from "@/lib/client/players.ts";

/** Answers of the seeded app's API (admin views of its LIVE competition). */
export interface SeedData {
  competitions: CompetitionRow[];
  matches: MatchWithTeams[];
  teams: Team[];
  live: Competition;
  players: PlayerWithTeam[];
  events: EventWithPlayer[];
  performances: PerformanceRecord[];
  intent: PaymentIntentAnswer;
}

const noop = () => {};
const yes = () => Promise.resolve(true);

/** Component id → the element to render. */
export function extraCases(data: SeedData): Record<string, () => ReactElement> {
  const { competitions, matches, teams, live, players, events, performances, intent } = data;
  const player = players[0];
  const picks: PickPlayer[] = players.slice(0, 5).map(toPickPlayer);
  const records = performances.filter((r) => r.player.position === "FWD");
  const drafts = Object.fromEntries(records.map((r) => [r.player.id, draftOf(r)]));
  const match = matches.find((m) => m.id === live.matchId) ?? matches[0];
  const account: AccountView = {
    email: "ann@example.com",
    person: "ann@example.com",
    entries: [{
      teamId: "FFT-AAAA1111",
      displayName: "Ann's Eleven",
      createdAt: "2026-11-27T12:00:00Z",
      competition: {
        id: live.id,
        name: live.name,
        status: live.status,
        currency: live.currency,
        prizeType: live.prizeType,
        deadline: live.deadline,
      },
      points: 12,
      rank: 3,
      prize: null,
      prizeDescription: null,
      refunded: false,
    }],
    limits: {
      daily: { cents: 2000, spent: 500, pending: null },
      weekly: { cents: 5000, spent: 500, pending: { cents: 8000, from: "2026-11-29T12:00:00Z" } },
      monthly: { cents: null, spent: 500, pending: null },
    },
    breakUntil: null,
    exclusion: null,
  };

  function PlayersTabCase({ kind }: { kind: "current" | "available" }) {
    const table = usePlayerTable(players);
    return (
      <PlayersTab
        kind={kind}
        table={table}
        total={players.length}
        busy={false}
        onAction={noop}
        onSalaryCommit={kind === "current" ? yes : undefined}
      />
    );
  }
  function PlayerRowsCase() {
    const table = usePlayerTable(players);
    return <PlayerRowsTable table={table} caption="Players" onSalaryCommit={yes} />;
  }

  return {
    "components/ContestCard.tsx#ContestCardSkeleton": () => <ContestCardSkeleton />,
    "components/admin/ActivityTable.tsx#ActivityTable": () => (
      <ActivityTable
        names={new Map([[live.id, live.name]])}
        entries={[{
          id: 1,
          at: "2026-11-26T22:41:07.000Z",
          admin: "admin",
          action: "Change status",
          request: `PUT /api/admin/competitions/${live.id}`,
          competitionId: live.id,
          before: { status: "UPCOMING" },
          after: { status: "LIVE" },
          reason: "Kick-off brought forward",
        }]}
      />
    ),
    "components/admin/StatusConfirmDialog.tsx#StatusConfirmDialog": () => (
      <StatusConfirmDialog
        message="The match kicks off in 47 minutes: going LIVE now closes entries early."
        status="LIVE"
        busy={false}
        onConfirm={() => {}}
        onClose={() => {}}
      />
    ),
    "components/admin/ReasonField.tsx#ReasonField": () => (
      <ReasonField id="why" label="Reason" value="" placeholder="Why" onChange={() => {}} />
    ),
    "components/admin/Avatar.tsx#Avatar": () => <Avatar name={player.name} src={player.imageUrl} />,
    "components/admin/CompetitionActions.tsx#CompetitionActions": () => (
      <CompetitionActions
        competition={live}
        onCopyLink={noop}
        onDelete={noop}
        onCancel={noop}
        className="flex"
      />
    ),
    "components/admin/CompetitionFields.tsx#CompetitionFields": () => (
      <CompetitionFields
        values={competitionToValues(live)}
        errors={{ name: "Required" }}
        matches={matches}
        timeZone="UTC"
        onChange={noop}
      />
    ),
    "components/admin/CompetitionNotFound.tsx#CompetitionNotFound": () => <CompetitionNotFound />,
    "components/admin/CompetitionsTable.tsx#CompetitionsTable": () => (
      <CompetitionsTable rows={competitions} onCopyLink={noop} onDelete={noop} onCancel={noop} />
    ),
    "components/admin/EventForm.tsx#EventForm": () => (
      <EventForm competitionId={live.id} players={players} live onCreated={noop} />
    ),
    "components/admin/EventList.tsx#EventList": () => <EventList events={events} onDelete={noop} />,
    "components/admin/Field.tsx#Field": () => (
      <Field id="name" label="Name" hint="Shown on the card" error="Required">
        <Input id="name" value="" onChange={noop} />
      </Field>
    ),
    "components/admin/MatchFields.tsx#MatchFields": () => (
      <MatchFields
        values={matchToValues(match)}
        errors={{}}
        teams={teams}
        editing
        timeZone="UTC"
        onChange={noop}
      />
    ),
    "components/admin/ClubsTable.tsx#ClubsTable": () => (
      <ClubsTable clubs={teams} onEdit={noop} onDelete={noop} />
    ),
    "components/admin/RowActions.tsx#RowActionButton": () => (
      <RowActionButton label={`Delete ${player.name}`} icon="trash" destructive onClick={noop} />
    ),
    "components/admin/RowActions.tsx#RowActionLink": () => (
      <RowActionLink href="/admin/matches/1" label="Edit match" title="Edit" icon="edit" />
    ),
    "components/admin/ClubDialog.tsx#ClubDialog": () => (
      <ClubDialog club={teams[0]} onClose={noop} onSaved={noop} />
    ),
    "components/admin/MatchesTable.tsx#MatchesTable": () => (
      <MatchesTable matches={matches} onDelete={noop} />
    ),
    "components/admin/PerformanceRow.tsx#PerformanceRow": () => (
      <Table>
        <tbody>
          <PerformanceRow
            player={records[0].player}
            draft={drafts[records[0].player.id]}
            errors={{ goals: "Too many" }}
            columns={8}
            onChange={noop}
          />
        </tbody>
      </Table>
    ),
    "components/admin/PerformanceTable.tsx#PerformanceTable": () => (
      <PerformanceTable
        title="Forwards"
        position="FWD"
        records={records}
        drafts={drafts}
        errors={{}}
        onChange={noop}
      />
    ),
    "components/admin/PlayerForm.tsx#PlayerForm": () => (
      <PlayerForm initial={playerToValues(player)} editing onSubmit={yes} onCancel={noop} />
    ),
    "components/admin/PlayerRowsTable.tsx#PlayerRowsTable": () => <PlayerRowsCase />,
    "components/admin/PlayersTab.tsx#PlayersTab": () => (
      <>
        <PlayersTabCase kind="current" />
        <PlayersTabCase kind="available" />
      </>
    ),
    "components/admin/PrizeRows.tsx#PrizeRows": () => (
      <PrizeRows
        drafts={[{ key: 1, position: "1", prize: "200" }, { key: 2, position: "2", prize: "" }]}
        pool={300}
        onUpdate={noop}
        onRemove={noop}
      />
    ),
    "components/admin/SalaryInput.tsx#SalaryInput": () => (
      <SalaryInput player={player} onCommit={yes} />
    ),
    "components/admin/SignInNotice.tsx#SignInNotice": () => (
      <SignInNotice
        title="Signed in"
        message="Welcome back."
        next={{ href: "/admin/dashboard", label: "Continue" }}
        redirect
      />
    ),
    "components/admin/States.tsx#ErrorState": () => <ErrorState message="Could not load" />,
    "components/admin/States.tsx#NotFoundState": () => (
      <NotFoundState title="Not found" description="Gone" href="/admin" label="Back" />
    ),
    "components/admin/Table.tsx#Table": () => (
      <Table caption="Players">
        <THead>
          <tr>
            <Th>Name</Th>
          </tr>
        </THead>
        <tbody>
          <Tr>
            <Td>{player.name}</Td>
          </Tr>
        </tbody>
      </Table>
    ),
    "components/admin/Table.tsx#THead": () => (
      <table>
        <THead className="sticky">
          <tr>
            <Th>Name</Th>
          </tr>
        </THead>
      </table>
    ),
    "components/admin/Table.tsx#Th": () => (
      <table>
        <thead>
          <tr>
            <Th className="w-10">Name</Th>
          </tr>
        </thead>
      </table>
    ),
    "components/admin/Table.tsx#Tr": () => (
      <table>
        <tbody>
          <Tr data-player-id={player.id}>
            <td>{player.name}</td>
          </Tr>
        </tbody>
      </table>
    ),
    "components/admin/Table.tsx#Td": () => (
      <table>
        <tbody>
          <tr>
            <Td data-label="Name">{player.name}</Td>
          </tr>
        </tbody>
      </table>
    ),
    "components/admin/TeamName.tsx#TeamName": () => (
      <TeamName team={player.team} fallback="No team" />
    ),
    "components/admin/TeamPlayersCard.tsx#TeamPlayersCard": () => (
      <TeamPlayersCard home={teams[0]} away={teams[1]} onOpen={noop} />
    ),
    // The leaderboard loads it on the first 'View Team' (React.lazy), so no page renders it.
    "components/TeamDialog.tsx#TeamDialog": () => (
      <TeamDialog
        target={{ id: "FFT-TEST", displayName: "Rovers" }}
        refreshKey={0}
        onClose={noop}
      />
    ),
    "islands/ShareButtons.tsx#default": () => (
      <ShareButtons
        teamId="FFT-TEST"
        url="/leaderboard/1?team=FFT-TEST"
        title="Rovers · La Liga Classic"
        text="My team in La Liga Classic"
      />
    ),
    "components/SocialMeta.tsx#SocialMeta": () => (
      <SocialMeta
        preview={{
          title: "La Liga Classic",
          description: "Entry fee $10.00 · Prize pool $100.00 · Deadline 6 Dec 2026, 15:00 UTC",
          url: "https://contests.example.com/team-selection/1",
          image: "https://contests.example.com/og/competition/1.png",
          imageAlt: "La Liga Classic: entry fee, prize pool and deadline",
        }}
      />
    ),
    "components/admin/TeamPlayersDialog.tsx#TeamPlayersDialog": () => (
      <TeamPlayersDialog team={teams[0]} onClose={noop} />
    ),
    "components/checkout/InfoForm.tsx#InfoForm": () => (
      <InfoForm
        values={{ teamName: "Rovers", email: "a@example.com", confirmEmail: "b@example.com" }}
        errors={{ confirmEmail: "Emails do not match" }}
        busy={false}
        submitLabel="Proceed to Payment: $10"
        onChange={noop}
        onSubmit={noop}
        notify={{ deadlineEmail: true, resultEmail: false }}
        onNotify={noop}
      />
    ),
    "components/NotificationSettings.tsx#NotificationSettings": () => (
      <NotificationSettings teamId="FFT-ABCD2345" editToken={"0".repeat(32)} upcoming />
    ),
    "components/checkout/InvalidCheckout.tsx#InvalidCheckout": () => <InvalidCheckout />,
    "components/checkout/CheckoutFlow.tsx#CheckoutFlow": () => (
      <CheckoutFlow
        competition={{ ...live, maxEntriesPerPerson: 3 }}
        picks={picks}
        closed="The entry deadline has passed."
        onEntryNumber={noop}
      />
    ),
    "components/checkout/TestCardForm.tsx#ClosedReason": () => (
      <ClosedReason closed="This competition is full." />
    ),
    "components/team/PlayerCard.tsx#PlayerCard": () => (
      <PlayerCard
        player={picks[0]}
        currency="USD"
        fixture="v CHE (H) Sat 15:00"
        selected={false}
        onToggle={noop}
        onClose={noop}
      />
    ),
    "components/team/TeamPlayerList.tsx#TeamPlayerList": () => (
      <TeamPlayerList
        players={picks}
        ownership={Object.fromEntries(picks.map((p, i) => [p.id, i / 5]))}
      />
    ),
    // The private edit link's page needs an entry's secret, so no page render reaches it.
    "islands/TeamEditor.tsx#default": () => (
      <TeamEditor
        token={"0".repeat(32)}
        competition={builderFields(live)}
        players={players.map(toPickPlayer)}
        renderedAt={new Date().toISOString()}
        team={{
          teamId: "FFT-TEST",
          teamName: "Rovers",
          playerIds: picks.map((p) => p.id),
          revision: 0,
        }}
      />
    ),
    "islands/EditTeamLink.tsx#default": () => <EditTeamLink teamId="FFT-TEST" open />,
    "islands/EntryNotifications.tsx#default": () => (
      <EntryNotifications teamId="FFT-TEST" upcoming />
    ),
    "components/checkout/PaymentStep.tsx#PaymentStep": () => (
      <PaymentStep intent={intent} payLabel="Pay and Submit Entry: $10" onPaid={noop}>
        <button type="button">Back to Information</button>
      </PaymentStep>
    ),
    "components/checkout/PicksSummary.tsx#PicksSummary": () => (
      <PicksSummary picks={picks} currency="USD" />
    ),
    "components/checkout/StepIndicator.tsx#StepIndicator": () => 
    <StepIndicator current="payment" />,
    "components/checkout/StripePaymentForm.tsx#StripePaymentForm": () => (
      <StripePaymentForm
        clientSecret="pi_1_secret_2"
        publishableKey="pk_test_1"
        paymentIntentId="pi_1"
        payLabel="Pay and Submit Entry: $10"
        onPaid={noop}
      />
    ),
    "components/checkout/TestCardForm.tsx#TestCardForm": () => (
      <TestCardForm
        paymentIntentId={intent.paymentIntentId}
        payLabel="Pay and Submit Entry: $10"
        onPaid={noop}
      />
    ),
    "components/ui/Card.tsx#CardFooter": () => (
      <Card>
        <CardFooter className="justify-end">Footer</CardFooter>
      </Card>
    ),
    "components/ui/Spinner.tsx#Spinner": () => <Spinner />,
    "components/ui/Tabs.tsx#Tabs": () => (
      <Tabs
        label="Players"
        defaultValue="available"
        items={[
          { value: "current", label: "Current", content: <p>Current players</p> },
          { value: "available", label: "Available", content: <p>Available players</p> },
          { value: "none", label: "Disabled", content: null, disabled: true },
        ]}
      />
    ),
    "islands/AdminLogin.tsx#default": () => <AdminLogin />,
    "islands/AdminPlayers.tsx#default": () => <AdminPlayers />,
    "islands/AdminRounds.tsx#default": () => <AdminRounds />,
    "islands/AdminOutbox.tsx#default": () => <AdminOutbox />,
    "components/account/AccountPanels.tsx#SignInPanel": () => (
      <SignInPanel email="ann@example.com" />
    ),
    "components/account/AccountPanels.tsx#PlayPanel": () => <PlayPanel view={account} />,
    "components/account/AccountPanels.tsx#EntriesPanel": () => <EntriesPanel view={account} />,
    "components/account/AccountPanels.tsx#SessionPanel": () => <SessionPanel view={account} />,
    "components/admin/RoundForm.tsx#RoundForm": () => (
      <RoundForm
        round={{
          id: 1,
          name: "Premier League, Matchday 14",
          matchIds: [matches[0].id],
          matches: [matches[0]],
        }}
        matches={matches}
        busy={false}
        serverError={null}
        onSave={noop}
        onCancel={noop}
      />
    ),
    "islands/OwnTeamLink.tsx#default": () => <OwnTeamLink teamId="FFT-TEST0001" />,
    "components/team/Padlock.tsx#Padlock": () => <Padlock />,
    // Public pages hide picks until they lock, so no seeded page marks a captain yet.
    "components/team/RoleBadge.tsx#RoleBadge": () => <RoleBadge role="C" />,
    "islands/MyEntries.tsx#default": () => <MyEntries />,
    // The league pages are reached by an invite link no seeded page renders.
    "islands/LeagueMembership.tsx#default": () => (
      <LeagueMembership
        leagueId="AAAAAAAAAAAAAAAAAAAAAA"
        leagueName="Office Friends"
        competitionId={5}
        inviteUrl="http://localhost:8000/leagues/AAAAAAAAAAAAAAAAAAAAAA"
        memberTeamIds={["FFT-TEST"]}
        memberCount={1}
        maxMembers={50}
      />
    ),
    "islands/LeagueCreate.tsx#default": () => <LeagueCreate teamId="FFT-TEST" />,
    "islands/AdminLeagueRemove.tsx#default": () => (
      <AdminLeagueRemove id="AAAAAAAAAAAAAAAAAAAAAA" name="Office Friends" />
    ),
    "components/YourLeagues.tsx#YourLeagues": () => <YourLeagues />,
    "components/InviteLink.tsx#InviteLink": () => (
      <InviteLink id="invite" url="http://localhost:8000/leagues/AAAAAAAAAAAAAAAAAAAAAA" />
    ),
    "islands/ClaimForm.tsx#default": () => <ClaimForm token="AAAAAAAAAAAAAAAAAAAAAA" cash />,
    "islands/AdminPayoutPay.tsx#default": () => (
      <AdminPayoutPay competitionId={5} entryId={1} label="1st place of La Liga Classic" />
    ),
    "islands/AdminRefundEntry.tsx#default": () => (
      <AdminRefundEntry
        competitionId={5}
        competitionName="La Liga Classic"
        teamId="FFT-3HBD9BH8"
        teamName="Paid Twice FC"
        amount="$5.00"
      />
    ),
    "islands/AdminContestTemplates.tsx#default": () => <AdminContestTemplates matchId={3} />,
    "components/admin/LedgerTable.tsx#LedgerLegend": () => <LedgerLegend />,
    "components/admin/CompetitionLink.tsx#CompetitionLink": () => (
      <CompetitionLink id={5} name="La Liga Classic" />
    ),
    "components/admin/LedgerTable.tsx#LedgerTable": () => (
      <LedgerTable lines={[ledgerLine]} totals={[{ ...ledgerLine, competitionId: null }]} />
    ),
    "components/admin/PaymentsTable.tsx#PaymentsTable": () => (
      <PaymentsTable
        rows={[paymentRow]}
        sort={{ current: "amount", descending: false, href: (sort) => `?sort=${sort}` }}
      />
    ),
  };
}

const ledgerLine = {
  competitionId: 5 as number | null,
  name: "La Liga Classic",
  currency: "usd",
  collected: 16000,
  refunded: 500,
  refundsPending: 0,
  entriesKept: 15500,
  unsettled: 0,
  prizesAwarded: 100000,
  prizesOwed: 100000,
  prizesPaid: 50000,
  providerFees: null,
  operatorKeeps: -84500,
};

const paymentRow = {
  paymentIntentId: "pi_demo_5_1",
  competitionId: 5,
  competitionName: "La Liga Classic",
  teamName: "False Nine Lives",
  email: "fan5.1@example.com",
  amount: 2000,
  currency: "usd",
  state: "refunded" as const,
  teamId: "FFT-NDLW5AT4",
  refundedAmount: 2000,
  refundReason: "Competition cancelled: Rain",
  refundFor: "FFT-NDLW5AT4",
  createdAt: "2026-11-15T02:22:00.000Z",
};
