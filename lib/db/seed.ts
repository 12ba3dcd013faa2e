/**
 * Demo data for an empty store: two leagues of fictional clubs, 70 players whose salaries make
 * the cap matter, matches, and competitions in every state (UPCOMING, LIVE with entries and
 * events, COMPLETED with prizes awarded). Deterministic (seeded PRNG), dates relative to `now`.
 */
import { rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { prng } from "@/lib/prng.ts";
import type {
  Competition,
  EventType,
  League,
  PerformanceStats,
  Player,
  Position,
  Team,
} from "@/lib/domain/types.ts";
import { addCompetitionPlayers } from "./competition_players.ts";
import { type CompetitionInput, createCompetition, updateCompetition } from "./competitions.ts";
import { createEntry } from "./entries.ts";
import { DEFAULT_CAPTAIN_MULTIPLIER } from "@/lib/domain/captain.ts";
import { createGameEvent } from "./events.ts";
import { keys } from "@/lib/store/keys.ts";
import { createMatch } from "./matches.ts";
import { createRound } from "./rounds.ts";
import { savePerformances } from "./performances.ts";
import { createPlayer } from "./players.ts";
import { setPrizeStructure } from "./prizes.ts";
import { createTeam } from "./teams.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Marker written when seeding starts, so two processes never seed the same store twice. */
const SEED_MARKER: Deno.KvKey = ["meta", "demo_seed"];

type Rng = () => number;

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface ClubSeed {
  name: string;
  shortName: string;
  stadium: string;
}

const CLUBS: Record<"PREMIER_LEAGUE" | "LA_LIGA", ClubSeed[]> = {
  PREMIER_LEAGUE: [
    { name: "Riverside Rovers", shortName: "RIV", stadium: "Riverside Park" },
    { name: "Kingsbridge Athletic", shortName: "KBA", stadium: "The Crown Ground" },
    { name: "Northgate United", shortName: "NGU", stadium: "Northgate Lane" },
    { name: "Ashford City", shortName: "ASH", stadium: "Ashford Community Stadium" },
    { name: "Harbourside Town", shortName: "HBT", stadium: "The Quayside" },
  ],
  LA_LIGA: [
    { name: "Real Montaña", shortName: "RMO", stadium: "Estadio Alto de la Sierra" },
    { name: "Atlético Costa Brava", shortName: "ACB", stadium: "Estadio del Litoral" },
    { name: "Deportivo Sierra Norte", shortName: "DSN", stadium: "Campo de los Pinos" },
    { name: "CD Valle Verde", shortName: "CVV", stadium: "Estadio Valle Verde" },
    { name: "Unión Puerto Azul", shortName: "UPA", stadium: "Estadio del Puerto" },
  ],
};

const NAMES: Record<"PREMIER_LEAGUE" | "LA_LIGA", { first: string[]; last: string[] }> = {
  PREMIER_LEAGUE: {
    first: ("Oliver Harry Jack George Noah Charlie Jacob Alfie Freddie Oscar Leo Archie Thomas " +
      "Joshua James William Henry Samuel Daniel Lewis Callum Ethan Reece Connor Declan Kieran " +
      "Marcus Tyler Jordan Aaron Ben Luke Ryan Nathan Owen").split(" "),
    last: ("Ashworth Bramley Calloway Dunmore Ellison Fairbanks Garside Holloway Ingram Jessop " +
      "Kettleby Lomax Marwood Norbury Oakes Pendleton Quarmby Radcliffe Stanway Thornton " +
      "Underhill Varley Whitlock Yardley Aldridge Birtles Cawthorne Dearden Eastwood Fenwick " +
      "Gresley Hartigan Kilbride Mottram Sheldrake").split(" "),
  },
  LA_LIGA: {
    first: ("Alejandro Pablo Diego Javier Sergio Adrián Álvaro Marcos Hugo Iker Raúl Dani Mario " +
      "Rubén Víctor Carlos Miguel Andrés Jorge Gonzalo Íñigo Unai Mikel Joaquín Rodrigo Tomás " +
      "Nacho Fernando Luis Óscar Samuel Bruno Iván Aitor Borja").split(" "),
    last: ("Alcántara Bermejo Cabrera Delgado Escribano Ferrando Galindo Herrera Iturbe Jiménez " +
      "Lozano Marín Navarro Olmedo Peña Quintero Robles Salcedo Tejada Urrutia Valverde Zamora " +
      "Arriaga Barrientos Cuadrado Domínguez Echeverría Fuentes Garrido Ibarra Luján Montoya " +
      "Ochoa Prieto Serrano").split(" "),
  },
};

/** Squad shape per club: 7 players. */
const SQUAD: Position[] = ["GK", "DEF", "DEF", "MID", "MID", "FWD", "FWD"];

/** Salary range per position; the first player of each position in a club is the star. */
const SALARY: Record<Position, [number, number]> = {
  GK: [4000, 8000],
  DEF: [4000, 9000],
  MID: [5000, 11000],
  FWD: [6000, 12000],
};

const DISPLAY_NAMES = [
  "The Gaffer's Gamble",
  "Route One Rebels",
  "Top Bins FC",
  "Park the Bus",
  "Sunday League Legends",
  "False Nine Lives",
  "Expected Goals",
  "Nutmeg United",
  "Offside Trap",
  "Row Z Clearances",
  "Half Time Oranges",
  "Golden Boot Boys",
  "Tiki Taka Tacos",
  "Bicycle Kicks",
  "Last Minute Winners",
  "Clean Sheet Club",
];

async function seedClubs(kv: Deno.Kv, league: "PREMIER_LEAGUE" | "LA_LIGA"): Promise<Team[]> {
  const teams: Team[] = [];
  for (const club of CLUBS[league]) {
    teams.push(
      await createTeam(kv, {
        name: club.name,
        shortName: club.shortName,
        league,
        logoUrl: `/crests/${club.shortName.toLowerCase()}.svg`,
      }),
    );
  }
  return teams;
}

function seasonStats(
  rng: Rng,
  position: Position,
): Pick<Player, "goals" | "assists" | "cleanSheets"> {
  const goals = { GK: 0, DEF: int(rng, 0, 3), MID: int(rng, 1, 8), FWD: int(rng, 4, 18) }[position];
  const assists =
    { GK: int(rng, 0, 1), DEF: int(rng, 0, 4), MID: int(rng, 2, 10), FWD: int(rng, 1, 7) }[
      position
    ];
  const cleanSheets = position === "GK" || position === "DEF" ? int(rng, 2, 12) : 0;
  return { goals, assists, cleanSheets };
}

async function seedPlayers(
  kv: Deno.Kv,
  rng: Rng,
  league: "PREMIER_LEAGUE" | "LA_LIGA",
  teams: Team[],
): Promise<Player[]> {
  const first = shuffle(rng, NAMES[league].first);
  const last = shuffle(rng, NAMES[league].last);
  const players: Player[] = [];
  let n = 0;
  for (const team of teams) {
    const seen = new Set<Position>();
    for (const position of SQUAD) {
      const [min, max] = SALARY[position];
      const star = !seen.has(position);
      seen.add(position);
      const salary = star
        ? Math.round(int(rng, max - 1500, max) / 100) * 100
        : Math.round(int(rng, min, max - 1500) / 100) * 100;
      players.push(
        await createPlayer(kv, {
          name: `${first[n]} ${last[n]}`,
          position,
          teamId: team.id,
          salary,
          ...seasonStats(rng, position),
        }),
      );
      n++;
    }
  }
  return players;
}

/** A random team of 5 that satisfies the competition's rules. */
function pickTeam(rng: Rng, pool: Player[], competition: Competition): Player[] {
  const byPosition = (p: Position) => pool.filter((x) => x.position === p);
  for (let attempt = 0; attempt < 500; attempt++) {
    const gk = shuffle(rng, byPosition("GK"))[0];
    const def = shuffle(rng, byPosition("DEF"))[0];
    const rest = shuffle(rng, pool.filter((p) => p.id !== gk.id && p.id !== def.id)).slice(0, 3);
    const team = [gk, def, ...rest];
    if (validateTeam(team, rulesOf(competition)).length === 0) return team;
  }
  throw new Error(`Demo seed: no valid team found for competition ${competition.id}`);
}

async function seedEntries(
  kv: Deno.Kv,
  rng: Rng,
  competition: Competition,
  pool: Player[],
  count: number,
  firstAt: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const team = pickTeam(rng, pool, competition);
    // With captains on: a random captain, the next pick as vice-captain.
    const c = Math.floor(rng() * team.length);
    const captains = competition.captainMultiplier
      ? { captainId: team[c].id, viceCaptainId: team[(c + 1) % team.length].id }
      : {};
    await createEntry(kv, {
      competitionId: competition.id,
      email: `fan${competition.id}.${i + 1}@example.com`,
      teamName: DISPLAY_NAMES[(i + competition.id) % DISPLAY_NAMES.length],
      playerIds: team.map((p) => p.id),
      stripePaymentId: `pi_demo_${competition.id}_${i + 1}`,
      ...captains,
    }, new Date(firstAt + i * 37 * 60 * 1000));
  }
}

/** Realistic full-match stats for a player (COMPLETED competitions). */
function fullMatchStats(rng: Rng, position: Position): Partial<PerformanceStats> {
  const played = rng() < 0.85;
  if (!played) return {};
  const conceded = int(rng, 0, 3);
  const attacking = position === "FWD" ? 0.45 : position === "MID" ? 0.3 : 0.1;
  return {
    minutesPlayed: rng() < 0.8 ? 90 : int(rng, 20, 75),
    goals: rng() < attacking ? int(rng, 1, 2) : 0,
    assists: rng() < attacking ? 1 : 0,
    cleanSheet: position !== "FWD" && conceded === 0,
    goalsConceded: position === "GK" || position === "DEF" ? conceded : 0,
    saves: position === "GK" ? int(rng, 1, 7) : 0,
    yellowCards: rng() < 0.15 ? 1 : 0,
    bonus: rng() < 0.1 ? 3 : 0,
  };
}

/**
 * The live match's first 52 minutes. `player` is the index in the match's squads, home club's
 * first (0–6: GK, DEF, DEF, MID, MID, FWD, FWD), then the away club's (7–13): on a fresh store
 * these are players 1–14, the ids the shipped recording (data-samples/replay/demo_live_match.json)
 * gives the same events, so a rehearsal from minute 53 continues this match (a test keeps the two
 * in step).
 */
export const DEMO_LIVE_EVENTS: {
  type: EventType;
  minute: number;
  player: number;
  description: string;
}[] = [
  { type: "GOAL", minute: 7, player: 5, description: "Low drive into the bottom corner" },
  { type: "ASSIST", minute: 7, player: 1, description: "Cut-back from the byline" },
  { type: "SAVE", minute: 14, player: 7, description: "Tipped over the bar" },
  { type: "YELLOW_CARD", minute: 22, player: 10, description: "Late challenge in midfield" },
  { type: "SAVE", minute: 29, player: 0, description: "Smothered at the near post" },
  { type: "GOAL", minute: 34, player: 6, description: "Header from a corner" },
  { type: "ASSIST", minute: 34, player: 1, description: "Inswinging corner" },
  { type: "PENALTY_SAVE", minute: 41, player: 0, description: "Dived low to the left" },
  { type: "PENALTY_MISS", minute: 41, player: 12, description: "Penalty saved" },
  { type: "GOAL", minute: 52, player: 3, description: "Curled in from the edge of the box" },
];

async function seedLiveMatch(kv: Deno.Kv, rng: Rng, cid: number, players: Player[]) {
  await savePerformances(
    kv,
    cid,
    players.map((p) => ({
      playerId: p.id,
      minutesPlayed: 55,
      goalsConceded: p.position === "GK" || p.position === "DEF" ? int(rng, 0, 1) : 0,
    })),
  );
  for (const event of DEMO_LIVE_EVENTS) {
    // One draw per event, as when the players were drawn at random: the demo data seeded after
    // this stays as it was.
    rng();
    await createGameEvent(kv, cid, {
      playerId: players[event.player].id,
      eventType: event.type,
      description: event.description,
      minute: event.minute,
    });
  }
}

async function createWithPlayers(
  kv: Deno.Kv,
  input: CompetitionInput,
  players: Player[],
  prizes: number[],
): Promise<Competition> {
  const competition = await createCompetition(kv, input);
  await addCompetitionPlayers(kv, competition.id, players.map((p) => p.id));
  await setPrizeStructure(
    kv,
    competition.id,
    prizes.map((prize, i) => ({ position: i + 1, prize })),
  );
  return competition;
}

async function isEmptyStore(kv: Deno.Kv): Promise<boolean> {
  for (const prefix of [keys.competitions(), keys.teams()]) {
    for await (const _ of kv.list({ prefix }, { limit: 1 })) return false;
  }
  return true;
}

/**
 * Seeds the demo data when the store has no competitions and no teams; returns whether it did.
 * A marker claimed in one atomic keeps two starting processes from both seeding.
 */
export async function seedDemoDataIfEmpty(kv: Deno.Kv, now = new Date()): Promise<boolean> {
  if (!(await isEmptyStore(kv))) return false;
  const marker = await kv.get(SEED_MARKER);
  // Another start claimed the seed already (its teams may not be written yet).
  if (marker.value !== null) return false;
  const claim = await kv.atomic().check(marker).set(SEED_MARKER, now.toISOString()).commit();
  if (!claim.ok) return false;
  await seedDemoData(kv, now);
  return true;
}

/** Writes the demo data (used on an empty store only). */
async function seedDemoData(kv: Deno.Kv, now: Date): Promise<void> {
  const rng = prng(20240817);
  const t = now.getTime();
  const at = (ms: number) => new Date(t + ms).toISOString();

  const pl = await seedClubs(kv, "PREMIER_LEAGUE");
  const ll = await seedClubs(kv, "LA_LIGA");
  const plPlayers = await seedPlayers(kv, rng, "PREMIER_LEAGUE", pl);
  const llPlayers = await seedPlayers(kv, rng, "LA_LIGA", ll);
  // The home club's ground, whatever the match's league (a cup tie is played in either).
  const stadium = (_league: League, team: Team) =>
    [...CLUBS.PREMIER_LEAGUE, ...CLUBS.LA_LIGA].find((c) => c.shortName === team.shortName)!
      .stadium;
  const match = (
    league: League,
    home: Team,
    away: Team,
    kickoff: number,
    score?: [number, number],
  ) =>
    createMatch(kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league,
      kickoffTime: at(kickoff),
      stadium: stadium(league, home),
      homeScore: score?.[0] ?? null,
      awayScore: score?.[1] ?? null,
    });

  const liveMatch = await match("PREMIER_LEAGUE", pl[0], pl[1], -HOUR);
  const sprintMatch = await match("PREMIER_LEAGUE", pl[2], pl[3], 20 * HOUR);
  await match("PREMIER_LEAGUE", pl[4], pl[0], 3 * DAY + 2 * HOUR);
  const classicMatch = await match("LA_LIGA", ll[0], ll[1], -7 * DAY + 2 * HOUR, [2, 1]);
  const weekendMatch = await match("LA_LIGA", ll[2], ll[3], 5 * DAY + 2 * HOUR);
  await match("LA_LIGA", ll[4], ll[2], -6 * DAY, [3, 3]);

  // A contest on a match offers the players of its two clubs only.
  const squads = (players: Player[], ...clubs: Team[]) =>
    players.filter((p) => clubs.some((club) => club.id === p.teamId));
  await createWithPlayers(
    kv,
    {
      name: "Premier League Matchday Sprint",
      description: "One match, a tight $40,000 cap.",
      league: "PREMIER_LEAGUE",
      matchId: sprintMatch.id,
      entryFee: 5,
      prizePool: 100,
      deadline: at(18 * HOUR),
      maxEntries: 100,
      salaryCap: 40000,
    },
    squads(plPlayers, pl[2], pl[3]),
    [50, 30, 20],
  );

  await createWithPlayers(
    kv,
    {
      name: "La Liga Weekend Showdown",
      description: "Pick five from Spain's finest.",
      league: "LA_LIGA",
      matchId: weekendMatch.id,
      entryFee: 10,
      prizePool: 500,
      deadline: at(5 * DAY),
      maxEntries: 200,
      captainMultiplier: DEFAULT_CAPTAIN_MULTIPLIER,
    },
    squads(llPlayers, ll[2], ll[3]),
    [250, 150, 100],
  );

  await createWithPlayers(
    kv,
    {
      name: "Champions Night Hamper Draw",
      description: "Best team across both leagues wins a signed shirt and hospitality for two.",
      league: "CHAMPIONS_LEAGUE",
      entryFee: 3,
      prizePool: 250,
      currency: "GBP",
      prizeType: "NON_CASH",
      customPrizeDescription: "Signed shirt and matchday hospitality for two",
      deadline: at(3 * DAY),
      maxEntries: 50,
      salaryCap: 45000,
    },
    [...plPlayers, ...llPlayers],
    [250],
  );

  const liveSquads = squads(plPlayers, pl[0], pl[1]);
  const classicSquads = squads(llPlayers, ll[0], ll[1]);
  const live = await createWithPlayers(
    kv,
    {
      name: "Premier League Live Challenge",
      description: `${pl[0].name} v ${pl[1].name} is under way: follow the points as they land.`,
      league: "PREMIER_LEAGUE",
      matchId: liveMatch.id,
      entryFee: 10,
      prizePool: 300,
      deadline: at(-2 * HOUR),
      maxEntries: 100,
      captainMultiplier: DEFAULT_CAPTAIN_MULTIPLIER,
    },
    liveSquads,
    [150, 90, 60],
  );
  await seedEntries(kv, rng, live, liveSquads, 12, t - 2 * DAY);
  await updateCompetition(kv, live.id, { status: "LIVE" });
  await seedLiveMatch(kv, rng, live.id, liveSquads);

  const classic = await createWithPlayers(
    kv,
    {
      name: "La Liga Classic",
      description: "Last week's classic: see who took the prizes.",
      league: "LA_LIGA",
      matchId: classicMatch.id,
      entryFee: 20,
      prizePool: 1000,
      deadline: at(-7 * DAY),
      maxEntries: 50,
      captainMultiplier: DEFAULT_CAPTAIN_MULTIPLIER,
    },
    classicSquads,
    [500, 300, 200],
  );
  await seedEntries(kv, rng, classic, classicSquads, 8, t - 10 * DAY);
  await savePerformances(
    kv,
    classic.id,
    classicSquads.map((p) => ({ playerId: p.id, ...fullMatchStats(rng, p.position) })),
  );
  await updateCompetition(kv, classic.id, { status: "COMPLETED" });

  // A round: five fixtures of a weekend with staggered kick-offs (a cup tie between the
  // leagues among them), and a contest over all of them where each pick locks at its own
  // match's kick-off (late swap).
  const roundStart = 6 * DAY;
  const roundMatches = [
    await match("PREMIER_LEAGUE", pl[0], pl[1], roundStart),
    await match("LA_LIGA", ll[0], ll[1], roundStart + 2 * HOUR),
    await match("PREMIER_LEAGUE", pl[2], pl[3], roundStart + 2.5 * HOUR),
    await match("LA_LIGA", ll[2], ll[3], roundStart + 4.5 * HOUR),
    await match("CHAMPIONS_LEAGUE", pl[4], ll[4], roundStart + DAY + 2 * HOUR),
  ];
  const round = await createRound(kv, {
    name: "Weekend Round 14",
    matchIds: roundMatches.map((m) => m.id),
  });
  await createWithPlayers(
    kv,
    {
      name: "Weekend Round Classic",
      description: "Every fixture of the weekend. Late swap: each pick locks at its own kick-off.",
      league: "CHAMPIONS_LEAGUE",
      roundId: round.id,
      lateSwap: true,
      autoStatus: true,
      entryFee: 5,
      prizePool: 250,
      maxEntries: 500,
      salaryCap: 50000,
    },
    [...plPlayers, ...llPlayers],
    [125, 75, 50],
  );
}
