/**
 * "My entries": what a visitor sees of their own entries (the team, its contest, status, points,
 * rank and prize), and the e-mail that lists an address's entries with links.
 */
import { getCompetitionsByIds } from "@/lib/db/competitions.ts";
import { getRefunds } from "@/lib/db/refunds.ts";
import { payoutsOfEntries, payoutState } from "@/lib/db/payout_records.ts";
import { maskEmail } from "@/lib/api/views.ts";
import { displayName, formatPrice, formatWhen } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { esc } from "@/lib/email/html.ts";
import type { MailMessage } from "@/lib/email/mailer.ts";
import type { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import type { EntrySummary } from "@/lib/domain/live.ts";

/**
 * The summaries of these entries, newest first (entries of deleted competitions left out); ranks
 * and points from the isolate's `leaderboards` (Services).
 */
export async function entrySummaries(
  kv: Deno.Kv,
  leaderboards: LeaderboardCache,
  entries: Entry[],
): Promise<EntrySummary[]> {
  const competitions = await getCompetitionsByIds(kv, entries.map((e) => e.competitionId));
  const [refunds, payouts] = await Promise.all([
    getRefunds(kv, entries.map((e) => e.stripePaymentId)),
    payoutsOfEntries(kv, entries),
  ]);
  const out: EntrySummary[] = [];
  for (const entry of entries) {
    const competition = competitions.get(entry.competitionId);
    if (!competition) continue;
    const standings = await leaderboards.standings(competition.id);
    const [row] = standings?.rowsForEntries([entry.id]) ?? [];
    const started = competition.status === "LIVE" || competition.status === "COMPLETED";
    out.push({
      teamId: entry.teamId,
      displayName: displayName(entry.teamName, entry.teamId),
      createdAt: entry.createdAt,
      competition: summaryCompetition(competition),
      points: started && row ? row.points : null,
      rank: started && row ? row.rank : null,
      prize: competition.status === "COMPLETED" && row ? row.prize : null,
      prizeDescription: row?.customPrizeDescription ?? null,
      // An entry refunded on its own shows so at once (its money is on the way back).
      refunded: refunds.get(entry.stripePaymentId)?.status === "DONE" || Boolean(entry.refundedAt),
      maskedEmail: maskEmail(entry.email),
      prizeState: payouts.has(entry.id) ? payoutState(payouts.get(entry.id)!) : null,
    });
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

function summaryCompetition(c: Competition): EntrySummary["competition"] {
  const { id, name, status, currency, prizeType, deadline } = c;
  return { id, name, status, currency, prizeType, deadline };
}

/** Status words of an entry, as My entries and the e-mail show them. */
export function entryStatusText(summary: EntrySummary): string {
  const { status } = summary.competition;
  if (status === "CANCELLED") return summary.refunded ? "Cancelled, refunded" : "Cancelled";
  if (summary.refunded) return "Refunded";
  if (status === "LIVE") return "Live";
  if (status === "COMPLETED") {
    return summary.prizeState === "paid" ? "Completed, paid" : "Completed";
  }
  return "Upcoming";
}

/**
 * The e-mail listing an address's entries: contest, team, status and a link to each team (and
 * to change it while it still can), plus one link that brings them all back into My entries in
 * any browser, and each prize not paid yet its claim link. `editTokens` holds each team's edit
 * secret (it opens the claim page too): this mail goes to its owner only.
 */
export function buildEntriesEmail(
  email: string,
  summaries: EntrySummary[],
  origin: string,
  editTokens: ReadonlyMap<string, string | null> = new Map(),
): MailMessage {
  const teamUrl = (s: EntrySummary) => `${origin}/confirmation/${encodeURIComponent(s.teamId)}`;
  const editUrl = (s: EntrySummary) => {
    const token = editTokens.get(s.teamId);
    const open = s.competition.status === "UPCOMING" &&
      (!s.competition.deadline || Date.parse(s.competition.deadline) > Date.now());
    return token && open ? `${origin}/edit/${token}` : null;
  };
  /** " (until Fri 27 Nov 2026, 17:06 UTC)": when an open team stops changing. */
  const until = (s: EntrySummary) => {
    const at = s.competition.deadline && formatWhen(s.competition.deadline, "UTC", { year: true });
    return at ? ` (until ${at})` : "";
  };
  const allUrl = `${origin}/my-entries?add=${summaries.map((s) => s.teamId).join(",")}`;
  const claimUrl = (s: EntrySummary) => {
    const token = editTokens.get(s.teamId);
    return token && s.prizeState && s.prizeState !== "paid" ? `${origin}/claim/${token}` : null;
  };
  const line = (s: EntrySummary) => {
    const prize = s.prize ? `, won ${formatPrice(s.prize, s.competition.currency)}` : "";
    const rank = s.rank ? `, rank ${s.rank}` : "";
    return `${s.competition.name}: ${s.displayName} (${s.teamId}), ${
      entryStatusText(s)
    }${rank}${prize}`;
  };
  const text = [
    "Here are the entries made with this e-mail address:",
    "",
    ...summaries.flatMap((s) => {
      const edit = editUrl(s);
      const claim = claimUrl(s);
      return [
        `- ${line(s)}`,
        `  ${teamUrl(s)}`,
        ...(edit ? [`  Change your team${until(s)}: ${edit}`] : []),
        ...(claim ? [`  Claim your prize: ${claim}`] : []),
      ];
    }),
    "",
    `See them all in My entries: ${allUrl}`,
  ].join("\n");
  const html = `<p>Here are the entries made with this e-mail address:</p>
<ul>${
    summaries.map((s) => {
      const edit = editUrl(s);
      const change = edit ? ` · <a href="${esc(edit)}">Change your team</a>${esc(until(s))}` : "";
      const claim = claimUrl(s);
      const prize = claim ? ` · <a href="${esc(claim)}">Claim your prize</a>` : "";
      return `<li><a href="${esc(teamUrl(s))}">${esc(line(s))}</a>${change}${prize}</li>`;
    }).join("")
  }</ul>
<p><a href="${esc(allUrl)}">See them all in My entries</a></p>`;
  return {
    to: email,
    subject: `Your fantasy entries (${summaries.length})`,
    text,
    html,
  };
}
