/**
 * A match day through the live event feed: `deno task bench replay`. The shipped recording
 * (data-samples/replay/demo_live_match.json, a full match with a correction and a withdrawal) is
 * replayed at 60× (REPLAY_SPEED) by `replayMatch`, signed and posted to `/api/feed/events` of the
 * app's server (serve.ts, one process), into a LIVE contest of 10,000 entries (REPLAY_ENTRIES)
 * followed by 1,000 sockets (REPLAY_SOCKETS, bench/crowd_client.mjs). For each message that adds
 * a game event: the time from the post until each socket got the `game_events_update` carrying
 * it (p50/p99/max over all sockets and events). At full time: every entry's points on the
 * leaderboard against the points computed from the recording alone (exact or not), and the
 * match's saved result. The next message waits until the sockets got the previous one, so the
 * replay runs slightly longer than 1/60 of the match. Writes .bench-out/replay.json.
 */
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createFeedProvider } from "@/lib/db/feed.ts";
import { keys } from "@/lib/store/keys.ts";
import { createMatch, getMatch } from "@/lib/db/matches.ts";
import { getManyValues } from "@/lib/store/util.ts";
import { applyEvent, emptyStats, scorePerformance } from "@/lib/domain/scoring.ts";
import type { Entry, EventType, Player } from "@/lib/domain/types.ts";
import { parseRecording, replayMatch } from "@/lib/feed/replay.ts";
import { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { lineOf, spawnLines, spawnServe } from "./processes.ts";
import { seedContest } from "@/tests/unit/live/seed.ts";

const OUT = new URL("../.bench-out/replay.json", import.meta.url);
const RECORDING = new URL("../data-samples/replay/demo_live_match.json", import.meta.url);
const SPEED = Number(Deno.env.get("REPLAY_SPEED") ?? 60);
const ENTRIES = Number(Deno.env.get("REPLAY_ENTRIES") ?? 10_000);
const SOCKETS = Number(Deno.env.get("REPLAY_SOCKETS") ?? 1_000);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const recording = parseRecording(await Deno.readTextFile(RECORDING));
const kvDir = await Deno.makeTempDir();
const kvPath = `${kvDir}/replay.kv`;
const kv = await Deno.openKv(kvPath);
const seeded = await seedContest(kv, { entries: ENTRIES, status: "LIVE", packRoster: true });
const cid = seeded.competition.id;
const clubs = [...new Set(seeded.players.map((p) => p.teamId))];
const match = await createMatch(kv, {
  homeTeamId: clubs[0],
  awayTeamId: clubs[1],
  league: "PREMIER_LEAGUE",
  kickoffTime: new Date(Date.now() - 60_000).toISOString(),
  stadium: "Bench Park",
});
await updateCompetition(kv, cid, { matchId: match.id });
// The recording's home players (1–7) and away players (8–14) onto the two clubs' players.
const squad = (club: number) => seeded.players.filter((p) => p.teamId === club);
const players = new Map<number, Player>();
for (let id = 1; id <= 14; id++) {
  const side = squad(id <= 7 ? clubs[0] : clubs[1]);
  players.set(id, side[(id - 1) % 7 % side.length]);
}
const provider = await createFeedProvider(kv, "bench");

const port = freePort();
const server = spawnServe(port, kvPath);
const latencies: number[] = [];
const perEventP99: number[] = [];
let missed = 0;
let answers;
let wallS = 0;
try {
  await lineOf(server, "Listening on");
  const client = spawnLines("node", [
    "bench/crowd_client.mjs",
    `${port}`,
    `${SOCKETS}`,
    `${1 << 16}`,
    `${cid}`,
  ]);
  try {
    await lineOf(client, "ready ");
    const started = performance.now();
    answers = await replayMatch(recording, {
      url: `http://127.0.0.1:${port}`,
      provider: "bench",
      secret: provider.secrets[0].secret,
      speed: SPEED,
      matchId: match.id,
      players: new Map([...players].map(([from, to]) => [from, to.id])),
      async onSent(message, answer) {
        const eventId = answer.events[cid];
        if (answer.status !== "APPLIED" || eventId === undefined || message.withdrawn) return;
        await client.write(`expect ${eventId} ${answer.sentAt}`);
        const got = JSON.parse((await lineOf(client, "latencies ")).slice(10)) as (
          | number
          | null
        )[];
        const ms = got.filter((v): v is number => v !== null).sort((a, b) => a - b);
        missed += got.length - ms.length;
        latencies.push(...ms);
        perEventP99.push(percentile(ms, 99));
      },
    });
    wallS = (performance.now() - started) / 1000;
  } finally {
    client.child.kill("SIGTERM");
    await client.child.status;
  }
} finally {
  server.child.kill("SIGTERM");
  await server.child.status;
}

// Points from the recording alone: the last version of each event, unless withdrawn.
const last = new Map<string, (typeof recording.events)[number]>();
for (const e of recording.events) {
  const seen = last.get(e.id);
  if (!seen || e.version * 2 + +e.withdrawn > seen.version * 2 + +seen.withdrawn) last.set(e.id, e);
}
const stats = new Map<number, ReturnType<typeof emptyStats>>();
for (const e of last.values()) {
  if (e.withdrawn || e.playerId === undefined || e.type.includes("_TIME")) continue;
  if (e.type === "KICK_OFF" || e.type === "SECOND_HALF") continue;
  const player = players.get(e.playerId)!;
  stats.set(player.id, applyEvent(stats.get(player.id) ?? emptyStats(), e.type as EventType, 1));
}
const positionOf = new Map(seeded.players.map((p) => [p.id, p.position]));
const expected = new Map(
  [...stats].map(([id, s]) => [id, scorePerformance(positionOf.get(id)!, s).totalPoints]),
);
const standings = (await new LeaderboardCache(kv).standings(cid))!;
const rows = standings.rows(0, standings.total);
const entries = new Map(
  (await getManyValues<Entry>(kv, rows.map((r) => keys.entry(r.id)))).map((e) => [e.id, e]),
);
let wrong = 0;
for (const row of rows) {
  const want = entries.get(row.id)!.playerIds.reduce((t, id) => t + (expected.get(id) ?? 0), 0);
  if (Math.abs(want - row.points) > 1e-9) wrong++;
}
const saved = (await getMatch(kv, match.id))!;
kv.close();
await Deno.remove(kvDir, { recursive: true });

latencies.sort((a, b) => a - b);
const result = {
  speed: SPEED,
  entries: ENTRIES,
  sockets: SOCKETS,
  messages: answers?.length ?? 0,
  refused: answers?.filter((a) => a.status === "REFUSED").length ?? 0,
  measuredEvents: perEventP99.length,
  wallSeconds: +wallS.toFixed(1),
  eventToSocketMs: {
    p50: +percentile(latencies, 50).toFixed(1),
    p99: +percentile(latencies, 99).toFixed(1),
    max: +(latencies[latencies.length - 1] ?? NaN).toFixed(1),
    medianOfEventP99: +percentile([...perEventP99].sort((a, b) => a - b), 50).toFixed(1),
  },
  missed,
  postMsMedian: +percentile((answers ?? []).map((a) => a.ms).sort((a, b) => a - b), 50).toFixed(1),
  fullTime: {
    result: `${saved.homeScore}-${saved.awayScore} ${saved.status}`,
    entriesChecked: rows.length,
    entriesWrong: wrong,
    pointsExact: wrong === 0 && rows.length === ENTRIES,
  },
  loadAverage: Deno.loadavg().map((n) => +n.toFixed(2)),
};
console.log(
  `replay: ${result.messages} messages at ${SPEED}× in ${result.wallSeconds} s into ${ENTRIES} ` +
    `entries, ${SOCKETS} sockets: event → socket p50 ${result.eventToSocketMs.p50} / p99 ` +
    `${result.eventToSocketMs.p99} / max ${result.eventToSocketMs.max} ms over ` +
    `${result.measuredEvents} events, missed ${missed}; post median ${result.postMsMedian} ms; ` +
    `full time ${result.fullTime.result}, points ${
      result.fullTime.pointsExact ? "exact" : `WRONG for ${wrong}`
    } (${rows.length} entries)`,
);
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
if (!result.fullTime.pointsExact || missed > 0) Deno.exit(1);
