/**
 * Seeds a contest with many entries fast, for the live tests and the leaderboard bench. Teams,
 * players and the competition go through lib/db; entries are written directly with the same keys
 * and atomic shape as `createEntry` (records, indexes, roster records, counter, currentEntries,
 * live bump), in large batches, because 100k entries through the checkout would take minutes.
 */
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { createCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { appendRosterChunks, appendToRoster } from "@/lib/store/roster.ts";
import { encodeRosterRecord } from "@/lib/store/roster_codec.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { createTeam } from "@/lib/db/teams.ts";
import type {
  Competition,
  CompetitionStatus,
  Entry,
  Player,
  Position,
  PrizeType,
} from "@/lib/domain/types.ts";

export interface SeedOptions {
  entries: number;
  status?: CompetitionStatus;
  prizeType?: PrizeType;
  customPrizeDescription?: string | null;
  /** createdAt of entry i (0-based); by default one second apart in id order. */
  createdAt?: (i: number) => string;
  /** teamName of entry i; by default `Team {i}`. */
  teamName?: (i: number) => string;
  /**
   * Write the roster as packed chunks after the entries (as a bulk import would) instead of one
   * roster record per entry in the entry's atomic; for large benches.
   */
  packRoster?: boolean;
  /** The picks of entry i (five distinct ids of `players`); by default spread over the pool. */
  picks?: (i: number, players: Player[]) => number[];
}

export interface SeededContest {
  competition: Competition;
  players: Player[];
  entryIds: number[];
  teamIds: string[];
}

const POSITIONS_CYCLE: Position[] = ["GK", "DEF", "DEF", "MID", "MID", "MID", "FWD", "FWD"];
/** Four writes per entry (record, two indexes, roster record) stay below 1000 per atomic. */
const ENTRY_BATCH = 240;
/** Strides coprime with the 20 players, so every entry finds 5 distinct picks. */
const STRIDES = [1, 3, 7, 9, 11];
const BASE_TIME = Date.parse("2030-01-01T12:00:00.000Z");

async function seedPlayers(kv: Deno.Kv, count: number): Promise<Player[]> {
  const players: Player[] = [];
  for (let t = 0; t < 4; t++) {
    const team = await createTeam(kv, {
      name: `Club ${t + 1}`,
      shortName: `C${t + 1}`,
      league: "PREMIER_LEAGUE",
      logoUrl: null,
    });
    for (let i = t; i < count; i += 4) {
      players.push(
        await createPlayer(kv, {
          name: `Player ${i + 1}`,
          position: POSITIONS_CYCLE[i % POSITIONS_CYCLE.length],
          teamId: team.id,
        }),
      );
    }
  }
  return players.sort((a, b) => a.id - b.id);
}

/** Five distinct player ids for entry i, spread deterministically over the pool. */
function picksFor(i: number, players: Player[]): number[] {
  const picks = new Set<number>();
  const stride = STRIDES[i % STRIDES.length];
  for (let step = 0; picks.size < 5; step++) {
    picks.add(players[(i * 7 + step * stride) % players.length].id);
  }
  return [...picks];
}

/** A competition with 20 players and `entries` entries; ids and team ids in creation order. */
export async function seedContest(kv: Deno.Kv, options: SeedOptions): Promise<SeededContest> {
  const players = await seedPlayers(kv, 20);
  const competition = await createCompetition(kv, {
    name: "Seeded Cup",
    league: "PREMIER_LEAGUE",
    entryFee: 10,
    prizePool: 1000,
    deadline: "2031-01-01T00:00:00.000Z",
    status: options.status ?? "LIVE",
    prizeType: options.prizeType ?? "CASH",
    customPrizeDescription: options.customPrizeDescription ?? null,
  });
  await addCompetitionPlayers(kv, competition.id, players.map((p) => p.id));
  const createdAt = options.createdAt ?? ((i) => new Date(BASE_TIME + i * 1000).toISOString());
  const teamName = options.teamName ?? ((i) => `Team ${i}`);
  const firstId = ((await kv.get<number>(keys.ids("entries"))).value ?? 0) + 1;
  const entryIds: number[] = [];
  const teamIds: string[] = [];
  const records: Uint8Array[] = [];
  for (let start = 0; start < options.entries; start += ENTRY_BATCH) {
    const op = kv.atomic();
    const end = Math.min(options.entries, start + ENTRY_BATCH);
    for (let i = start; i < end; i++) {
      const entry: Entry = {
        id: firstId + i,
        competitionId: competition.id,
        email: `fan${i}@example.com`,
        teamId: `FFT-${String(competition.id).padStart(2, "0")}${String(i).padStart(6, "0")}`,
        teamName: teamName(i),
        stripePaymentId: `pi_seed_${competition.id}_${i}`,
        playerIds: (options.picks ?? picksFor)(i, players),
        points: 0,
        rank: null,
        prize: null,
        prizeType: competition.prizeType,
        customPrizeDescription: competition.customPrizeDescription,
        createdAt: createdAt(i),
      };
      op.set(keys.entry(entry.id), entry)
        .set(keys.entryByCompetition(competition.id, entry.id), entry.id)
        .set(keys.entryByTeamId(entry.teamId), entry.id);
      if (options.packRoster) records.push(encodeRosterRecord(entry));
      else appendToRoster(op, entry);
      entryIds.push(entry.id);
      teamIds.push(entry.teamId);
    }
    const res = await op.commit();
    if (!res.ok) throw new Error("seeding entries failed");
  }
  await appendRosterChunks(kv, competition.id, records);
  const seeded = { ...competition, currentEntries: options.entries };
  const op = kv.atomic()
    .set(keys.ids("entries"), firstId + options.entries - 1)
    .set(keys.competition(competition.id), seeded);
  const res = await bumpLive(op, competition.id).commit();
  if (!res.ok) throw new Error("seeding the competition failed");
  return { competition: seeded, players, entryIds, teamIds };
}
