/**
 * Every Deno KV key of the app, in one place. Primary records live under
 * `[entity_plural, id]`; indexes say `_by_` and hold ids, never copies of records.
 */

/** The entities that get numeric ids from an atomic counter `["ids", entity]`. */
export type IdEntity =
  | "admins"
  | "teams"
  | "players"
  | "matches"
  | "rounds"
  | "competitions"
  | "entries"
  | "performances"
  | "events"
  | "prizes";

export const keys = {
  /** Counter of the last id handed out for an entity. */
  ids: (entity: IdEntity): Deno.KvKey => ["ids", entity],

  admin: (id: number): Deno.KvKey => ["admins", id],
  admins: (): Deno.KvKey => ["admins"],
  adminByUsername: (username: string): Deno.KvKey => ["admin_by_username", username],
  session: (token: string): Deno.KvKey => ["sessions", token],
  /** An address `user` logged in from recently (see login_trust.ts); expires. */
  loginTrust: (user: string, address: string): Deno.KvKey => ["login_trust", user, address],
  /** A sign-in through the identity provider in progress (state, PKCE verifier, nonce). */
  oauthState: (id: string): Deno.KvKey => ["oauth_states", id],
  /** An admin's confirmed TOTP authenticator (second factor of password logins). */
  totpEnrolment: (adminId: number): Deno.KvKey => ["totp_enrolments", adminId],
  /** A TOTP secret shown to an admin and not yet confirmed with a first code. */
  totpPendingEnrolment: (adminId: number): Deno.KvKey => ["totp_pending_enrolments", adminId],
  /** One unused recovery code of an admin, by its SHA-256 hash. */
  recoveryCode: (adminId: number, hash: string): Deno.KvKey => ["recovery_codes", adminId, hash],
  recoveryCodes: (adminId: number): Deno.KvKey => ["recovery_codes", adminId],

  team: (id: number): Deno.KvKey => ["teams", id],
  teams: (): Deno.KvKey => ["teams"],
  player: (id: number): Deno.KvKey => ["players", id],
  players: (): Deno.KvKey => ["players"],
  playerByTeam: (teamId: number, playerId: number): Deno.KvKey => [
    "players_by_team",
    teamId,
    playerId,
  ],
  playersByTeam: (teamId: number): Deno.KvKey => ["players_by_team", teamId],

  match: (id: number): Deno.KvKey => ["matches", id],
  matches: (): Deno.KvKey => ["matches"],
  competitionByMatch: (matchId: number, cid: number): Deno.KvKey => [
    "competitions_by_match",
    matchId,
    cid,
  ],
  competitionsByMatch: (matchId: number): Deno.KvKey => ["competitions_by_match", matchId],

  round: (id: number): Deno.KvKey => ["rounds", id],
  rounds: (): Deno.KvKey => ["rounds"],
  /** The rounds a match is in. */
  roundByMatch: (matchId: number, roundId: number): Deno.KvKey => [
    "rounds_by_match",
    matchId,
    roundId,
  ],
  roundsByMatch: (matchId: number): Deno.KvKey => ["rounds_by_match", matchId],
  competitionByRound: (roundId: number, cid: number): Deno.KvKey => [
    "competitions_by_round",
    roundId,
    cid,
  ],
  competitionsByRound: (roundId: number): Deno.KvKey => ["competitions_by_round", roundId],

  competition: (id: number): Deno.KvKey => ["competitions", id],
  competitions: (): Deno.KvKey => ["competitions"],
  competitionPlayer: (cid: number, playerId: number): Deno.KvKey => [
    "competition_players",
    cid,
    playerId,
  ],
  competitionPlayers: (cid: number): Deno.KvKey => ["competition_players", cid],
  performance: (cid: number, playerId: number): Deno.KvKey => ["performances", cid, playerId],
  performances: (cid: number): Deno.KvKey => ["performances", cid],
  event: (cid: number, eventId: number): Deno.KvKey => ["events", cid, eventId],
  /** The record id of a club, player or match by the external id an import gave it. */
  externalId: (kind: "teams" | "players" | "matches", externalId: string): Deno.KvKey => [
    "external_ids",
    kind,
    externalId,
  ],
  /** An import of a file: what, by whom, when, and how far its apply got (see imports.ts). */
  importJob: (id: number): Deno.KvKey => ["imports", id],
  importJobs: (): Deno.KvKey => ["imports"],
  /** Chunk n of the checked rows of an import, staged before its apply starts. */
  importChunk: (id: number, n: number): Deno.KvKey => ["import_chunks", id, n],
  importChunks: (id: number): Deno.KvKey => ["import_chunks", id],
  /** Part p of what applying chunk n overwrote, kept to undo it if a later chunk fails. */
  importUndo: (id: number, n: number, p: number): Deno.KvKey => ["import_undo", id, n, p],
  importUndos: (id: number, n?: number): Deno.KvKey =>
    n === undefined ? ["import_undo", id] : ["import_undo", id, n],
  /** A data provider of the live event feed, with its (one or two) signing secrets. */
  feedProvider: (name: string): Deno.KvKey => ["feed_providers", name],
  feedProviders: (): Deno.KvKey => ["feed_providers"],
  /** A feed signature already accepted (kept past the 5-minute window, then expires). */
  feedSignature: (provider: string, signature: string): Deno.KvKey => [
    "feed_signatures",
    provider,
    signature,
  ],
  /** What became of one provider event: applied (and where), refused (and why), withdrawn. */
  feedEvent: (provider: string, eventId: string): Deno.KvKey => ["feed_events", provider, eventId],
  /** The feed's log of deliveries, by time-ordered id (newest last). */
  feedLogEntry: (id: number): Deno.KvKey => ["feed_log", id],
  feedLog: (): Deno.KvKey => ["feed_log"],
  /** The period of a match as the feed last told it (kick-off, half time, full time). */
  feedMatch: (matchId: number): Deno.KvKey => ["feed_matches", matchId],
  /** Goals and own goals per club in a competition's events (the live score, see events.ts). */
  goalTally: (cid: number): Deno.KvKey => ["goal_tally", cid],
  events: (cid: number): Deno.KvKey => ["events", cid],
  prize: (cid: number, position: number): Deno.KvKey => ["prizes", cid, position],
  prizes: (cid: number): Deno.KvKey => ["prizes", cid],
  live: (cid: number): Deno.KvKey => ["live", cid],
  /** The last entry sequence number of a competition (its entry ids, see entry_writes.ts). */
  entrySeq: (cid: number): Deno.KvKey => ["entry_seq", cid],
  /** The roster's state: how many sealed chunks, and whether older entries were backfilled. */
  rosterMeta: (cid: number): Deno.KvKey => ["roster_meta", cid],
  /** Sealed roster chunk n: the packed picks of up to ~1,600 entries (see roster.ts). */
  rosterChunk: (cid: number, n: number): Deno.KvKey => ["roster", cid, n],
  rosterChunks: (cid: number): Deno.KvKey => ["roster", cid],
  /** One entry's packed picks, written with the entry, until compaction moves it into a chunk. */
  rosterTailEntry: (cid: number, entryId: number): Deno.KvKey => ["roster_tail", cid, entryId],
  rosterTail: (cid: number): Deno.KvKey => ["roster_tail", cid],
  /** An entry refunded on its own: it stays in the roster but leaves the leaderboard. */
  rosterWithdrawn: (cid: number, entryId: number): Deno.KvKey => ["roster_withdrawn", cid, entryId],
  rostersWithdrawn: (cid: number): Deno.KvKey => ["roster_withdrawn", cid],
  /** Change marker of players, teams and matches (every competition page shows some). */
  catalog: (): Deno.KvKey => ["catalog"],
  /** Change marker of everything public (see touch.ts): the competition list reads only this. */
  publicVersion: (): Deno.KvKey => ["public"],

  entry: (id: number): Deno.KvKey => ["entries", id],
  entryByCompetition: (cid: number, entryId: number): Deno.KvKey => [
    "entries_by_competition",
    cid,
    entryId,
  ],
  entriesByCompetition: (cid: number): Deno.KvKey => ["entries_by_competition", cid],
  entryByTeamId: (teamId: string): Deno.KvKey => ["entry_by_team_id", teamId],
  /** The entry whose private edit link carries this secret. */
  entryByEditToken: (token: string): Deno.KvKey => ["entry_by_edit_token", token],
  entryByPayment: (paymentIntentId: string): Deno.KvKey => ["entry_by_payment", paymentIntentId],
  /** The entries of one e-mail address (lower case), for "find my entries". */
  entryByEmail: (email: string, entryId: number): Deno.KvKey => [
    "entries_by_email",
    email.toLowerCase(),
    entryId,
  ],
  entriesByEmail: (email: string): Deno.KvKey => ["entries_by_email", email.toLowerCase()],
  /** How many entries one person (e-mail, trimmed, lower case) holds in a competition. */
  personEntries: (cid: number, person: string): Deno.KvKey => ["entries_by_person", cid, person],
  /** The entry that holds a display name (its skeleton, see display_name.ts) in a competition. */
  teamNameInCompetition: (cid: number, skeleton: string): Deno.KvKey => [
    "team_name_by_competition",
    cid,
    skeleton,
  ],
  /** The entry id of one person's team (sorted player ids joined by ",") in a competition. */
  personTeam: (cid: number, person: string, picks: string): Deno.KvKey => [
    "team_by_person",
    cid,
    person,
    picks,
  ],
  checkout: (paymentIntentId: string): Deno.KvKey => ["checkouts", paymentIntentId],
  checkouts: (): Deno.KvKey => ["checkouts"],
  /** Index of the checkouts still PENDING (the recovery sweep reads only these). */
  checkoutPending: (paymentIntentId: string): Deno.KvKey => ["checkouts_pending", paymentIntentId],
  checkoutsPending: (): Deno.KvKey => ["checkouts_pending"],

  /** The recent hits of one client against one rate limit (see rate_limits.ts). */
  rateLimit: (bucket: string, client: string): Deno.KvKey => ["rate_limits", bucket, client],
  /** The refund of a payment intent, once one was decided (see refunds.ts); never expires. */
  refund: (paymentIntentId: string): Deno.KvKey => ["refunds", paymentIntentId],
  refunds: (): Deno.KvKey => ["refunds"],
  /** Index of the refunds decided but not yet confirmed by the provider. */
  refundPending: (paymentIntentId: string): Deno.KvKey => ["refunds_pending", paymentIntentId],
  refundsPending: (): Deno.KvKey => ["refunds_pending"],
  /** Index of the single-entry refunds whose entrant was not told yet (entry_refund.ts). */
  refundUnnotified: (
    paymentIntentId: string,
  ): Deno.KvKey => ["refunds_unnotified", paymentIntentId],
  refundsUnnotified: (): Deno.KvKey => ["refunds_unnotified"],
  /** Set once a one-time start-up migration finished on this store (see migrations.ts). */
  migration: (name: string): Deno.KvKey => ["migrations", name],
  /** A winner's prize: owed, claimed (payout details sealed), paid (lib/db/payout_records.ts). */
  payout: (cid: number, entryId: number): Deno.KvKey => ["payouts", cid, entryId],
  payoutsOf: (cid: number): Deno.KvKey => ["payouts", cid],
  payouts: (): Deno.KvKey => ["payouts"],
  /** Set once a completion's awards and payouts are all written (standings.ts `awardPrizes`). */
  awardsRecorded: (cid: number): Deno.KvKey => ["awards_recorded", cid],
  /** The payout a claim link opens, by the SHA-256 of its token. */
  payoutByToken: (tokenHash: string): Deno.KvKey => ["payout_by_token", tokenHash],
  /** Store-held secrets (the payout sealing key when none is configured). */
  secret: (name: string): Deno.KvKey => ["secrets", name],
  /** An admin's sessions started before this moment (ms) are over (2FA was turned on). */
  sessionsValidFrom: (adminId: number): Deno.KvKey => ["sessions_valid_from", adminId],
  /** Paid entries made on a UTC day ("YYYY-MM-DD"): the purchases of the dashboard's funnel. */
  purchasesOn: (day: string): Deno.KvKey => ["analytics_purchases", day],
  /** The job cancelling a competition: refunding and telling every entrant (cancellation.ts). */
  cancelJob: (cid: number): Deno.KvKey => ["jobs", "cancel", cid],
  cancelJobs: (): Deno.KvKey => ["jobs", "cancel"],
  /** A lease held by one process for a while (see leases.ts). */
  lease: (name: string): Deno.KvKey => ["leases", name],

  /** The admin activity log, append-only, by time-ordered id (see audit.ts). */
  audit: (id: number): Deno.KvKey => ["audit", id],
  audits: (): Deno.KvKey => ["audit"],
  /** The activity log entries about one competition. */
  auditByCompetition: (cid: number, id: number): Deno.KvKey => ["audit_by_competition", cid, id],
  auditsByCompetition: (cid: number): Deno.KvKey => ["audit_by_competition", cid],
  /** Competitions found offering players from outside their match (see match_players.ts). */
  offMatchCompetition: (cid: number): Deno.KvKey => ["off_match_competitions", cid],
  offMatchCompetitions: (): Deno.KvKey => ["off_match_competitions"],

  /** A friends' league (leagues.ts), by its unguessable id (the invite link's token). */
  league: (id: string): Deno.KvKey => ["leagues", id],
  leagues: (): Deno.KvKey => ["leagues"],
  /** One member entry of a league. */
  leagueMember: (leagueId: string, entryId: number): Deno.KvKey => [
    "league_members",
    leagueId,
    entryId,
  ],
  leagueMembers: (leagueId: string): Deno.KvKey => ["league_members", leagueId],
  /** The leagues one entry is in: their ids, and how many (the leagues-per-entry limit). */
  leagueOfEntry: (entryId: number, leagueId: string): Deno.KvKey => [
    "leagues_by_entry",
    entryId,
    leagueId,
  ],
  leagueCountOfEntry: (entryId: number): Deno.KvKey => ["league_count_by_entry", entryId],
  /** The league that holds a name (its skeleton, see display_name.ts) in a competition. */
  leagueNameInCompetition: (cid: number, skeleton: string): Deno.KvKey => [
    "league_name_by_competition",
    cid,
    skeleton,
  ],
  /** The e-mailed code that lets an entry join a league (hashed; expires). */
  leagueJoinCode: (leagueId: string, entryId: number): Deno.KvKey => [
    "league_join_codes",
    leagueId,
    entryId,
  ],
  leagueJoinCodes: (leagueId: string): Deno.KvKey => ["league_join_codes", leagueId],

  /** An entry's notification opt-ins, consents and what was sent (see notifications.ts). */
  notifyPrefs: (cid: number, entryId: number): Deno.KvKey => ["notify_prefs", cid, entryId],
  notifyPrefsOf: (cid: number): Deno.KvKey => ["notify_prefs", cid],
  /** An address that bounced: it gets no notification any more. */
  notifyBounced: (email: string): Deno.KvKey => ["notify_bounced", email.toLowerCase()],
  /** A notification kind fully sent for a competition (the job skips it then). */
  notifyDone: (kind: string, cid: number): Deno.KvKey => ["notify_done", kind, cid],
  /** A scoring event waiting to be pushed to the entries holding its player. */
  pushQueued: (id: number): Deno.KvKey => ["push_queue", id],
  pushQueue: (): Deno.KvKey => ["push_queue"],
  /** A push the push service refused for now (429, 5xx) or never answered: tried again later. */
  pushRetry: (cid: number, entryId: number, tag: string): Deno.KvKey => [
    "push_retries",
    cid,
    entryId,
    tag,
  ],
  pushRetries: (): Deno.KvKey => ["push_retries"],
  pushRetriesOf: (cid: number): Deno.KvKey => ["push_retries", cid],
  /** A kept push's place in due-time order: the drainer reads only the pushes that are due. */
  pushRetryDue: (nextAt: number, cid: number, entryId: number, tag: string): Deno.KvKey => [
    "push_retry_due",
    nextAt,
    cid,
    entryId,
    tag,
  ],
  pushRetriesDue: (): Deno.KvKey => ["push_retry_due"],
  /** The tag an amended scoring event's pushes carry: the first push's, of the event it amends. */
  pushTag: (cid: number, eventId: number): Deno.KvKey => ["push_tags", cid, eventId],
  pushTagsOf: (cid: number): Deno.KvKey => ["push_tags", cid],

  outboxMessage: (id: number): Deno.KvKey => ["outbox", id],
  outbox: (): Deno.KvKey => ["outbox"],
  /** Outbox messages still to hand to the SMTP server (outbox.ts `deliverOutbox`). */
  outboxUndelivered: (id: number): Deno.KvKey => ["outbox_undelivered", id],
  outboxUndeliveredAll: (): Deno.KvKey => ["outbox_undelivered"],
  /** The outbox by recipient (the address lower-cased), for support's Outbox screen. */
  outboxToRecipient: (to: string, id: number): Deno.KvKey => ["outbox_to", to, id],
  outboxOfRecipient: (to: string): Deno.KvKey => ["outbox_to", to],

  /** A person (`personOf`'s mailbox): their play settings and when their sessions stay valid. */
  person: (person: string): Deno.KvKey => ["persons", person],
  /** Paid spend of a person, [ms, minor units] of the last 30 days: the limits' ledger. */
  personSpend: (person: string): Deno.KvKey => ["spend_by_person", person],
  /** A person's exclusion from play (their own, or a regulator's list). */
  selfExclusion: (person: string): Deno.KvKey => ["self_exclusions", person],
  selfExclusions: (): Deno.KvKey => ["self_exclusions"],
  /** A sign-in link by the SHA-256 of its token. */
  signInLink: (hash: string): Deno.KvKey => ["sign_in_links", hash],
  /** A person's session by the SHA-256 of its id. */
  accountSession: (hash: string): Deno.KvKey => ["account_sessions", hash],
};

/** The longest text (UTF-8 bytes) from a request that is looked up as part of a key. */
export const MAX_KEY_TEXT_BYTES = 512;

/**
 * True when `text` can be part of a key this app writes: not empty and at most
 * MAX_KEY_TEXT_BYTES bytes. Lookups of anything else answer "not found" without asking the store,
 * which refuses keys over 2 KiB with an error.
 */
export function isKeyText(text: string): boolean {
  return text.length > 0 && text.length <= MAX_KEY_TEXT_BYTES &&
    new TextEncoder().encode(text).byteLength <= MAX_KEY_TEXT_BYTES;
}

/** Deno KV refuses more than this many keys in one `getMany`. */
export const GET_MANY_LIMIT = 10;
/** Deno KV refuses more than 100 checks and 1000 mutations in one atomic; we stay well below. */
export const ATOMIC_CHUNK = 400;
