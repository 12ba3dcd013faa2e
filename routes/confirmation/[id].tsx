import type { Handlers, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import { SocialMeta } from "@/components/SocialMeta.tsx";
import { StatusCard } from "@/components/StatusCard.tsx";
import { TeamPlayerList } from "@/components/team/TeamPlayerList.tsx";
import type { TeamRoles } from "@/components/team/RoleBadge.tsx";
import EditTeamLink from "@/islands/EditTeamLink.tsx";
import EntryNotifications from "@/islands/EntryNotifications.tsx";
import OwnTeamLink from "@/islands/OwnTeamLink.tsx";
import { Button } from "@/components/ui/Button.tsx";
import ShareButtons from "@/islands/ShareButtons.tsx";
import { linkOrigin } from "@/lib/config.ts";
import { teamSharePath } from "@/lib/client/share.ts";
import { entryPlayers } from "@/lib/db/players.ts";
import { HIDDEN_PICK, lockedPickIds } from "@/lib/api/pick_privacy.ts";
import { isOwnerRequest } from "@/lib/http/owner_cookie.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { editLockReason } from "@/lib/db/entry_edits.ts";
import type { Competition } from "@/lib/domain/types.ts";
import type { State } from "@/lib/services.ts";
import { type PickPlayer, toPickPlayer } from "@/lib/client/players.ts";
import { maskEmail } from "@/lib/api/views.ts";
import { amountPaidText, formatPrice } from "@/lib/domain/format.ts";
import { type SocialPreview, teamPreview } from "@/lib/og/previews.ts";
import { builderFixture } from "@/lib/api/builder.ts";
import { LocalTime } from "@/components/LocalTime.tsx";
import { LOCAL_TIMES_PREPAINT } from "@/lib/client/prepaint.ts";

type Data = {
  teamId: string;
  /** The address the confirmation went to, masked (j***@example.com). */
  email: string;
  /** The entry fee paid, formatted in the competition's currency. */
  paid: string;
  competition: Pick<Competition, "id" | "name" | "description" | "deadline">;
  /** The kick-off of the competition's match (ISO), if it has one. */
  kickoff: string | null;
  players: PickPlayer[];
  /** The captain and vice-captain, marked on the players (contests with captains). */
  roles: TeamRoles;
  /** Picks not shown until they lock (the owner sees them through the edit link). */
  hiddenPicks: number;
  /** The team can still be changed (before the deadline, not refunded). */
  open: boolean;
  /** Why the team is locked (null while it can change). */
  lockedReason: string | null;
  /** Notifications may be asked for (not refunded, the competition not cancelled). */
  notify: boolean;
  /** The refund of this entry's payment (a cancelled competition), formatted; null if none. */
  refund: { amount: string; reason: string; done: boolean } | null;
  /** The link previews and the Share button point at the team on the leaderboard. */
  preview: SocialPreview;
} | null;

export const handler: Handlers<Data, State> = {
  async GET(req, ctx) {
    const { kv } = ctx.state.services;
    const entry = await getEntryByTeamId(kv, ctx.params.id);
    const competition = entry && await getCompetition(kv, entry.competitionId);
    if (!entry || !competition) return ctx.render(null, { status: 404 });
    const [players, refund, fixture] = await Promise.all([
      entryPlayers(kv, entry),
      getRefund(kv, entry.stripePaymentId),
      builderFixture(kv, competition),
    ]);
    // The payer's own browser sees the whole team; everyone else only the picks that locked.
    const owner = isOwnerRequest(req, entry);
    const shown = owner
      ? new Set(players.map((p) => p.id))
      : await lockedPickIds(kv, competition, players);
    const { id, name, description, deadline } = competition;
    const origin = linkOrigin(ctx.state.services.config);
    const sharePath = teamSharePath(competition.id, entry.teamId);
    return ctx.render({
      teamId: entry.teamId,
      email: maskEmail(entry.email),
      paid: amountPaidText(entry, competition),
      competition: { id, name, description, deadline },
      kickoff: fixture?.kickoffTime ?? null,
      roles: { captainId: entry.captainId, viceCaptainId: entry.viceCaptainId },
      // Picks stay private until they lock: the owner sees them through the edit link.
      players: players.filter((p) => shown.has(p.id)).map(toPickPlayer),
      hiddenPicks: players.filter((p) => !shown.has(p.id)).length,
      open: !refund && editLockReason(competition, false, new Date()) === null,
      lockedReason: editLockReason(competition, refund !== null, new Date()),
      notify: !refund && competition.status !== "CANCELLED",
      refund: refund && {
        amount: formatPrice(refund.amount / 100, refund.currency),
        reason: refund.reason,
        done: refund.status === "DONE",
      },
      preview: teamPreview(entry, competition, origin, sharePath, new Date()),
    }, owner ? { headers: { "cache-control": "private, no-store" } } : undefined);
  },
};

function CheckIcon() {
  return (
    <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-success/10 text-success">
      <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
        <path
          d="m5 12 5 5 9-10"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
      </svg>
    </span>
  );
}

function NotFound() {
  return (
    <StatusCard
      title="Entry Not Found"
      description="We couldn't find an entry with this team ID."
    >
      <Button href="/">Return to contests</Button>
    </StatusCard>
  );
}

/** Entry confirmation: the parameter is the team ID. */
export default function ConfirmationPage({ data }: PageProps<Data>) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <Head>
        <title>
          {data ? (data.refund ? "Entry Refunded" : "You're All Set!") : "Entry Not Found"}{" "}
          · Fantasy Contests
        </title>
        {data && <SocialMeta preview={data.preview} />}
      </Head>
      {data ? <Confirmation {...data} /> : <NotFound />}
    </main>
  );
}

/** The head of the page: entered, or refunded with how much and why. */
function Outcome({ refund }: Pick<NonNullable<Data>, "refund">) {
  if (!refund) {
    return (
      <div className="grid gap-3 text-center">
        <CheckIcon />
        <h1 className="text-3xl font-extrabold tracking-tight">You're All Set!</h1>
        <p className="text-muted-foreground">Your team is entered. Good luck!</p>
      </div>
    );
  }
  return (
    <div className="grid gap-3 text-center" data-refunded="">
      <h1 className="text-3xl font-extrabold tracking-tight">Entry Refunded</h1>
      <p>
        {refund.done
          ? <>{refund.amount} has been refunded to your card.</>
          : <>A refund of {refund.amount} is on its way to your card.</>}
      </p>
      <p className="text-sm text-muted-foreground">{refund.reason}</p>
    </div>
  );
}

/** The deadline and the kick-off, in the visitor's zone (the script rewrites the server's UTC). */
function CompetitionTimes({ deadline, kickoff }: { deadline: string; kickoff: string | null }) {
  return (
    <>
      <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-competition-times="">
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Deadline</dt>
          <dd className="font-medium" data-deadline="">
            <LocalTime iso={deadline} />
          </dd>
        </div>
        {kickoff && (
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Kick-off</dt>
            <dd className="font-medium" data-kickoff="">
              <LocalTime iso={kickoff} />
            </dd>
          </div>
        )}
      </dl>
      <script
        // Static text of ours, allowed by its hash in the CSP.
        // deno-lint-ignore react-no-danger
        dangerouslySetInnerHTML={{ __html: LOCAL_TIMES_PREPAINT }}
      />
    </>
  );
}

function Confirmation(
  {
    teamId,
    email,
    paid,
    competition,
    kickoff,
    players,
    roles,
    hiddenPicks,
    refund,
    open,
    lockedReason,
    notify,
    preview,
  }: NonNullable<Data>,
) {
  return (
    <div className="grid gap-6 rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">
      <Outcome refund={refund} />
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2" data-receipt="">
        <div className="rounded-lg border border-border px-4 py-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            Amount paid
          </dt>
          <dd className="mt-0.5 text-lg font-bold tabular-nums" data-amount-paid="">{paid}</dd>
        </div>
        <div className="rounded-lg border border-border px-4 py-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            Confirmation e-mail
          </dt>
          <dd className="mt-0.5 break-words" data-email-sent="">
            Sent to <strong>{email}</strong> with your team and links.
          </dd>
        </div>
      </dl>
      <div className="rounded-lg bg-muted/60 p-4 text-center">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Team ID</p>
        <p className="mt-1 select-all font-mono text-xl font-bold" data-team-id="">{teamId}</p>
        <p className="mt-1 text-xs text-muted-foreground">
          Keep it to find your team on the leaderboard.
        </p>
        <ShareButtons
          teamId={teamId}
          url={preview.url}
          title={preview.title}
          text={preview.description}
          className="mt-3"
        />
      </div>
      {notify && <EntryNotifications teamId={teamId} upcoming={open} />}
      <section aria-labelledby="competition-title">
        <h2 id="competition-title" className="text-lg font-semibold">{competition.name}</h2>
        {competition.description && (
          <p className="mt-1 text-sm text-muted-foreground">{competition.description}</p>
        )}
        <CompetitionTimes deadline={competition.deadline} kickoff={kickoff} />
      </section>
      <section aria-labelledby="players-title" className="grid gap-2">
        <h2 id="players-title" className="text-base font-semibold">Your players</h2>
        <div data-confirmation-players="">
          <TeamPlayerList players={players} roles={roles} />
          {hiddenPicks > 0 && (
            <p className="text-sm text-muted-foreground" data-hidden-picks="">
              {hiddenPicks} {hiddenPicks === 1 ? "pick" : "picks"}:{" "}
              {HIDDEN_PICK}. Open your edit link to see your whole team.
            </p>
          )}
          {hiddenPicks > 0 && <OwnTeamLink teamId={teamId} />}
        </div>
        <EditTeamLink
          teamId={teamId}
          open={open}
          lockedReason={lockedReason}
          deadline={competition.deadline}
        />
      </section>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button href={`/leaderboard/${competition.id}`} size="lg" className="sm:flex-1">
          View Leaderboard
        </Button>
        <Button
          href={`/leagues/new?team=${encodeURIComponent(teamId)}`}
          variant="outline"
          size="lg"
          className="sm:flex-1"
        >
          Create a league
        </Button>
        <Button href="/" variant="outline" size="lg" className="sm:flex-1">Back to contests</Button>
      </div>
    </div>
  );
}
