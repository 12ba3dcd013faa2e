/** Small builders of test data, written straight to the store through lib/db. */
import { ensureAdmin } from "@/lib/auth/admins.ts";
import {
  markCheckoutFinalised,
  type PendingCheckoutInput,
  savePendingCheckout,
} from "@/lib/db/checkouts.ts";
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import {
  type CompetitionInput,
  createCompetition,
  updateCompetition,
} from "@/lib/db/competitions.ts";
import { createEntry } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { createPlayer, type PlayerInput } from "@/lib/db/players.ts";
import { createTeam, type TeamInput } from "@/lib/db/teams.ts";
import type { Competition, Entry, Match, Player, Position, Team } from "@/lib/domain/types.ts";
import { rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { type TestApp, withTestApp } from "./app.ts";

let counter = 0;
const unique = () => ++counter;

export const TEST_ADMIN = { username: "admin", password: "correct horse battery staple" };
export const SUCCESS_CARD = "4242 4242 4242 4242";
export const DECLINED_CARD = "4000 0000 0000 0002";

/** A team; name and short name are made unique. */
export function makeTeam(kv: Deno.Kv, overrides: Partial<TeamInput> = {}): Promise<Team> {
  const n = unique();
  return createTeam(kv, {
    name: `Team ${n}`,
    shortName: `T${n}`,
    league: "PREMIER_LEAGUE",
    logoUrl: null,
    ...overrides,
  });
}

/** A player (of a new team unless `teamId` is given). */
export async function makePlayer(
  kv: Deno.Kv,
  overrides: Partial<PlayerInput> = {},
): Promise<Player> {
  const teamId = overrides.teamId ?? (await makeTeam(kv)).id;
  return createPlayer(kv, {
    name: `Player ${unique()}`,
    position: "MID",
    salary: 1000,
    ...overrides,
    teamId,
  });
}

export type TestCompetition = Competition & { players: Player[]; teams: Team[] };

const SQUAD: Position[] = ["GK", "DEF", "DEF", "MID", "FWD"];

/**
 * An UPCOMING competition (fee 10 USD, deadline in 7 days) with two teams of five players
 * (GK, DEF, DEF, MID, FWD each) added to it, unless `players: false`.
 */
export async function makeCompetition(
  kv: Deno.Kv,
  overrides: Partial<CompetitionInput> = {},
  options: { players?: boolean } = {},
): Promise<TestCompetition> {
  const competition = await createCompetition(kv, {
    name: `Competition ${unique()}`,
    league: "PREMIER_LEAGUE",
    entryFee: 10,
    prizePool: 100,
    deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    ...overrides,
  });
  if (options.players === false) return { ...competition, players: [], teams: [] };
  const teams = [await makeTeam(kv), await makeTeam(kv)];
  const players: Player[] = [];
  for (const team of teams) {
    for (const position of SQUAD) players.push(await makePlayer(kv, { teamId: team.id, position }));
  }
  await addCompetitionPlayers(kv, competition.id, players.map((p) => p.id));
  return { ...competition, players, teams };
}

/**
 * Five player ids of a `makeCompetition` that pass every default rule: GK, DEF, MID of the first
 * team and DEF, FWD of the second.
 */
export function validPicks(competition: TestCompetition): number[] {
  const [a, b] = competition.teams;
  const pick = (team: Team, position: Position) =>
    competition.players.find((p) => p.teamId === team.id && p.position === position)!.id;
  return [pick(a, "GK"), pick(a, "DEF"), pick(a, "MID"), pick(b, "DEF"), pick(b, "FWD")];
}

/** Every five-player team of the competition that keeps its rules. */
export function validTeams(c: TestCompetition): number[][] {
  const teams: number[][] = [];
  const pick = (from: number, chosen: number[]) => {
    if (chosen.length === 5) {
      const players = chosen.map((id) => c.players.find((p) => p.id === id)!);
      if (validateTeam(players, rulesOf(c)).length === 0) teams.push([...chosen]);
      return;
    }
    for (let i = from; i < c.players.length; i++) pick(i + 1, [...chosen, c.players[i].id]);
  };
  pick(0, []);
  return teams;
}

/**
 * An entry named `teamName` as entries were made before display names were unique per
 * competition: the competition's name index is dropped once it is written, so a later entry may
 * take the same name (the data older stores hold).
 */
export async function makeLegacyEntry(
  kv: Deno.Kv,
  competition: TestCompetition,
  teamName: string,
): Promise<Entry> {
  const entry = await makeEntry(kv, competition, { teamName });
  const index = keys.teamNameInCompetition(competition.id, "").slice(0, 2);
  for await (const e of kv.list({ prefix: index })) await kv.delete(e.key);
  return entry;
}

/**
 * An entry written straight to the store (no payment provider involved), by a new entrant
 * (`fan<n>@example.com`) unless `overrides` say who.
 */
export async function makeEntry(
  kv: Deno.Kv,
  competition: TestCompetition,
  overrides: Partial<{ email: string; teamName: string; playerIds: number[] }> = {},
): Promise<Entry> {
  const { entry } = await createEntry(kv, {
    competitionId: competition.id,
    email: `fan${unique()}@example.com`,
    teamName: `Fan ${unique()}`,
    playerIds: validPicks(competition),
    stripePaymentId: `pi_fixture_${unique()}_${crypto.randomUUID()}`,
    ...overrides,
  });
  return entry;
}

/** Creates the test admin (if needed) and returns its x-admin-username/-password headers. */
export async function makeAdminHeaders(kv: Deno.Kv): Promise<Record<string, string>> {
  await ensureAdmin(kv, TEST_ADMIN.username, TEST_ADMIN.password);
  return {
    "x-admin-username": TEST_ADMIN.username,
    "x-admin-password": TEST_ADMIN.password,
  };
}

/** Runs `fn` with a fresh test app and the admin headers of its test admin (see withTestApp). */
export function withAdminApp(
  fn: (app: TestApp, admin: Record<string, string>) => Promise<void>,
): Promise<void> {
  return withTestApp(async (app) => fn(app, await makeAdminHeaders(app.kv)));
}

/** Creates the test admin, logs in and returns the Cookie header value of the session. */
export async function loginCookie(app: TestApp): Promise<string> {
  await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
  const res = await app.request("/api/admin/login", { method: "POST", json: TEST_ADMIN });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  await res.body?.cancel();
  const setCookie = res.headers.get("set-cookie") ?? "";
  return setCookie.split(";")[0];
}

/** Opens a test-mode payment for a competition and pays it with the success card. */
export async function payTestIntent(
  app: Pick<TestApp, "request">,
  competitionId: number,
): Promise<string> {
  const intentRes = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId },
  });
  if (intentRes.status !== 200) {
    throw new Error(`payment intent failed: ${intentRes.status} ${await intentRes.text()}`);
  }
  const { paymentIntentId } = await intentRes.json();
  const confirmRes = await app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: SUCCESS_CARD },
  });
  if (confirmRes.status !== 200) {
    throw new Error(`payment failed: ${confirmRes.status} ${await confirmRes.text()}`);
  }
  await confirmRes.body?.cancel();
  return paymentIntentId;
}

/** The payments `entryBody` was asked about, per competition (each test's own object), in order. */
const bodiesByCompetition = new WeakMap<TestCompetition, string[]>();

/**
 * The display name of a payment's entry: "Jane's Team" for a competition's first payment, then
 * "Jane's Team 2", … (display names are unique within a competition); the same for a repeat.
 */
function janesTeam(competition: TestCompetition, stripePaymentId: string): string {
  const seen = bodiesByCompetition.get(competition) ?? [];
  bodiesByCompetition.set(competition, seen);
  if (!seen.includes(stripePaymentId)) seen.push(stripePaymentId);
  const n = seen.indexOf(stripePaymentId) + 1;
  return n === 1 ? "Jane's Team" : `Jane's Team ${n}`;
}

/** The body of a valid POST /api/entries for a paid intent. */
export function entryBody(competition: TestCompetition, stripePaymentId: string) {
  return {
    competitionId: competition.id,
    email: "jane@example.com",
    teamName: janesTeam(competition, stripePaymentId),
    playerIds: validPicks(competition),
    stripePaymentId,
  };
}

/** A checkout's input for this payment (a $10 team of players 1–5 unless `overrides` say else). */
export function checkoutInput(
  paymentIntentId: string,
  overrides: Partial<PendingCheckoutInput> = {},
): PendingCheckoutInput {
  return {
    paymentIntentId,
    competitionId: 1,
    email: "fan@example.com",
    teamName: "Fans",
    playerIds: [1, 2, 3, 4, 5],
    amount: 1000,
    currency: "usd",
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** The checkout of a payment that made the entry `teamId`, as the entry's commit leaves it. */
export async function makeFinalisedCheckout(
  kv: Deno.Kv,
  paymentIntentId: string,
  teamId: string,
  overrides: Partial<PendingCheckoutInput> = {},
): Promise<void> {
  await savePendingCheckout(kv, checkoutInput(paymentIntentId, overrides));
  await markCheckoutFinalised(kv, paymentIntentId, teamId);
}

/**
 * A LIVE competition (see makeCompetition) on a match between its two teams that kicked off an
 * hour ago (UPCOMING until its first event or kick-off).
 */
export async function makeLiveMatch(
  kv: Deno.Kv,
): Promise<{ c: TestCompetition; match: Match }> {
  const c = await makeCompetition(kv);
  const match = await startMatch(kv, c);
  return { c: { ...c, matchId: match.id, status: "LIVE" }, match };
}

/** A match of `c`'s two teams that kicked off an hour ago; `c` is LIVE on it. */
export async function startMatch(kv: Deno.Kv, c: TestCompetition): Promise<Match> {
  const match = await createMatch(kv, {
    homeTeamId: c.teams[0].id,
    awayTeamId: c.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() - 3_600_000).toISOString(),
    stadium: "The Ground",
  });
  await updateCompetition(kv, c.id, { matchId: match.id, status: "LIVE" });
  return match;
}
