import { useEffect, useState } from "react";
import type { EntrySummary } from "@/lib/domain/live.ts";
import { formatPrice, ordinal } from "@/lib/domain/format.ts";
import { ApiError } from "@/lib/client/api.ts";
import {
  acceptEntries,
  entryCanLead,
  entryEditable,
  loadMyEntries,
  requestEntriesEmail,
} from "@/lib/client/my_entries.ts";
import { editTokenOf } from "@/lib/client/user_entries.ts";
import { LocalTime } from "@/components/LocalTime.tsx";
import { YourLeagues } from "@/components/YourLeagues.tsx";
import { NotificationSettings } from "@/components/NotificationSettings.tsx";

const STATUS_STYLE: Record<string, string> = {
  UPCOMING: "bg-secondary text-secondary-foreground",
  LIVE: "bg-destructive text-destructive-foreground",
  COMPLETED: "bg-success text-white",
  CANCELLED: "bg-muted text-muted-foreground",
};

function statusText(s: EntrySummary): string {
  const { status } = s.competition;
  if (status === "CANCELLED") return s.refunded ? "Cancelled · refunded" : "Cancelled";
  if (s.refunded) return "Refunded";
  if (status === "LIVE") return "Live";
  if (status === "COMPLETED") return "Completed";
  return "Upcoming";
}

const PRIZE_STATE: Record<string, string> = {
  owed: "to claim",
  claimed: "claimed",
  paid: "Paid",
  unclaimed: "unclaimed",
};

function prizeWon(s: EntrySummary): string {
  if (s.competition.status !== "COMPLETED") return "—";
  const won = s.prizeDescription ||
    (s.prize ? formatPrice(s.prize, s.competition.currency) : "");
  if (!won) return "—";
  return s.prizeState ? `${won} · ${PRIZE_STATE[s.prizeState]}` : won;
}

/** The claim link of a prize not paid yet: the entry's own secret opens its claim page. */
function claimHref(entry: EntrySummary): string | null {
  if (!entry.prizeState || entry.prizeState === "paid") return null;
  const token = editTokenOf(entry.teamId);
  return token ? `/claim/${token}` : null;
}

function EntryCard({ entry }: { entry: EntrySummary }) {
  const editToken = entryEditable(entry) ? editTokenOf(entry.teamId) : null;
  const claim = claimHref(entry);
  const notifyToken = editTokenOf(entry.teamId);
  const stats = [
    ["Points", entry.points === null ? "—" : String(entry.points)],
    ["Rank", entry.rank === null ? "—" : ordinal(entry.rank)],
    ["Prize", prizeWon(entry)],
  ];
  return (
    <li
      className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
      data-my-entry={entry.teamId}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-medium text-muted-foreground">{entry.competition.name}</p>
          <h2 className="mt-0.5 break-words text-lg font-semibold leading-tight">
            <a
              // The owner's own link shows every pick; the public page hides those not locked yet.
              href={notifyToken
                ? `/edit/${notifyToken}`
                : `/confirmation/${encodeURIComponent(entry.teamId)}`}
              className="hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {entry.displayName}
            </a>
          </h2>
          <p className="font-mono text-xs text-muted-foreground">{entry.teamId}</p>
        </div>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            STATUS_STYLE[entry.refunded ? "CANCELLED" : entry.competition.status] ?? ""
          }`}
          data-entry-status=""
        >
          {statusText(entry)}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2 rounded-lg bg-muted/60 p-3 text-sm">
        {stats.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
              {label}
            </dt>
            <dd className="break-words font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-3 flex flex-wrap gap-2 text-sm">
        <a
          href={`/confirmation/${encodeURIComponent(entry.teamId)}`}
          className="rounded-md border border-border px-3 py-1.5 font-medium hover:bg-accent"
        >
          View team
        </a>
        {editToken && (
          <a
            href={`/edit/${editToken}`}
            className="rounded-md border border-primary px-3 py-1.5 font-medium text-primary hover:bg-primary/5"
            data-edit-team=""
          >
            Edit team
          </a>
        )}
        {editToken && entry.competition.deadline && (
          <span className="self-center text-xs text-muted-foreground" data-edit-until="">
            until <LocalTime iso={entry.competition.deadline} className="whitespace-nowrap" />
          </span>
        )}
        {claim && (
          <a
            href={claim}
            rel="noreferrer"
            className="rounded-md bg-primary px-3 py-1.5 font-medium text-primary-foreground hover:bg-primary-hover"
            data-claim-prize=""
          >
            {entry.prizeState === "claimed" ? "Correct payout details" : "Claim prize"}
          </a>
        )}
        <a
          href={`/leaderboard/${entry.competition.id}`}
          className="rounded-md border border-border px-3 py-1.5 font-medium hover:bg-accent"
        >
          Leaderboard
        </a>
        {notifyToken && entryCanLead(entry) && (
          <a
            href={`/leagues/new?team=${encodeURIComponent(entry.teamId)}`}
            className="rounded-md border border-border px-3 py-1.5 font-medium hover:bg-accent"
            data-create-league=""
          >
            Create a league
          </a>
        )}
      </div>
      {notifyToken && entry.competition.status !== "CANCELLED" && !entry.refunded && (
        <NotificationSettings
          teamId={entry.teamId}
          editToken={notifyToken}
          upcoming={entryEditable(entry)}
        />
      )}
    </li>
  );
}

/** The entries an e-mailed link brings: added to this browser only once the visitor says so. */
function AddFromLink(
  { entries, onAccept, onDecline }: {
    entries: EntrySummary[];
    onAccept: () => void;
    onDecline: () => void;
  },
) {
  const owners = [...new Set(entries.map((e) => e.maskedEmail ?? ""))].filter(Boolean);
  return (
    <section
      aria-labelledby="add-from-link"
      className="rounded-xl border border-primary/40 bg-card p-4 shadow-sm sm:p-5"
      data-add-from-link=""
    >
      <h2 id="add-from-link" className="text-lg font-semibold">
        Add {entries.length === 1 ? "this entry" : `these ${entries.length} entries`}{" "}
        to this browser?
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {entries.length === 1 ? "It was" : "They were"} entered with{" "}
        <strong className="text-foreground">{owners.join(", ") || "another address"}</strong>. Add
        {entries.length === 1 ? " it" : " them"} only if that is you.
      </p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {entries.map((e) => <li key={e.teamId}>{e.competition.name}: {e.displayName}</li>)}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onAccept}
          className="inline-flex h-10 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary-hover"
        >
          Add to My entries
        </button>
        <button
          type="button"
          onClick={onDecline}
          className="inline-flex h-10 items-center rounded-md border border-border px-4 text-sm font-medium hover:bg-accent"
        >
          Not mine
        </button>
      </div>
    </section>
  );
}

function FindByEmail() {
  const [email, setEmail] = useState("");
  const [answer, setAnswer] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setAnswer(await requestEntriesEmail(email));
    } catch (err) {
      setAnswer(null);
      setError(
        err instanceof ApiError
          ? err.serverMessage ?? "Please try again."
          : "An unexpected error occurred.",
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      aria-labelledby="find-entries"
      className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
    >
      <h2 id="find-entries" className="text-lg font-semibold">Find my entries by e-mail</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Entered on another device? We will e-mail the address you paid with a list of its entries,
        with a link to each team.
      </p>
      <form className="mt-3 flex flex-col gap-2 sm:flex-row" onSubmit={submit} noValidate>
        <label htmlFor="find-email" className="sr-only">Email Address</label>
        <input
          id="find-email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail((e.target as HTMLInputElement).value)}
          aria-invalid={error ? "true" : undefined}
          className="flex h-10 w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive"
        />
        <button
          type="submit"
          disabled={busy}
          className="inline-flex h-10 shrink-0 items-center justify-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground shadow-sm hover:bg-primary-hover disabled:opacity-50"
        >
          E-mail my entries
        </button>
      </form>
      {answer && <p className="mt-2 text-sm text-success" role="status">{answer}</p>}
      {error && <p className="mt-2 text-sm text-destructive" role="alert">{error}</p>}
    </section>
  );
}

/** My entries: every entry this browser made, each opening its team, and find-by-e-mail. */
export default function MyEntries() {
  const [entries, setEntries] = useState<EntrySummary[] | null>(null);
  const [offered, setOffered] = useState<EntrySummary[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadMyEntries(location.search).then(({ mine, offered }) => {
      setEntries(mine);
      setOffered(offered);
    }, () => setFailed(true));
  }, []);
  const accept = () => {
    acceptEntries(offered);
    setEntries([...offered, ...(entries ?? [])]);
    setOffered([]);
  };
  return (
    <div className="grid gap-6">
      {offered.length > 0 && (
        <AddFromLink
          entries={offered}
          onAccept={accept}
          onDecline={() => setOffered([])}
        />
      )}
      {failed && (
        <p className="text-sm text-destructive" role="alert">
          Your entries could not be loaded. Please refresh the page.
        </p>
      )}
      {!failed && entries === null && (
        <p className="text-sm text-muted-foreground" data-loading="">Loading your entries...</p>
      )}
      {entries && entries.length === 0 && (
        <div className="rounded-xl border border-dashed border-border p-8 text-center">
          <p className="font-semibold" data-empty-state="">No entries in this browser yet.</p>
          <p className="mt-1 text-sm text-muted-foreground">
            Teams you enter from this browser appear here.{" "}
            <a href="/" className="underline">
              Find a contest
            </a>
          </p>
        </div>
      )}
      {entries && entries.length > 0 && (
        <ul className="grid gap-4 sm:grid-cols-2" aria-label="Your entries">
          {entries.map((entry) => <EntryCard key={entry.teamId} entry={entry} />)}
        </ul>
      )}
      <YourLeagues />
      <FindByEmail />
    </div>
  );
}
