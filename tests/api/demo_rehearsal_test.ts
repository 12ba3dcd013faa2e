/**
 * The demo's match-day rehearsal agrees with itself: the shipped recording's first 52 minutes are
 * the events the demo seeds, and replaying the rest (`npx deno task feed:replay … --from 53`, as the
 * docs say) saves the result its goal events give, home and away, on `npm start` and on main.ts.
 */
import assert from "node:assert/strict";
import { listGameEvents } from "@/lib/db/events.ts";
import { getMatch } from "@/lib/db/matches.ts";
import { getPlayersByIds } from "@/lib/db/players.ts";
import { listCompetitions } from "@/lib/db/competitions.ts";
import { parseRecording } from "@/lib/feed/replay.ts";
import { FEED_STATUS_TYPES } from "@/lib/domain/schemas/feed.ts";
import { withTestApp } from "@/tests/helpers/app.ts";
import { startMainEntry } from "@/tests/helpers/main_entry.ts";
import { startServer } from "@/tests/helpers/server.ts";

const ROOT = new URL("../../", import.meta.url);
const RECORDING_PATH = "data-samples/replay/demo_live_match.json";
const recording = parseRecording(await Deno.readTextFile(new URL(RECORDING_PATH, ROOT)));
const LIVE_NAME = "Premier League Live Challenge";
const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

const isStatus = (type: string) => (FEED_STATUS_TYPES as readonly string[]).includes(type);

/** The recording's events, each at its last version and without the withdrawn ones. */
function finalEvents() {
  const last = new Map<string, (typeof recording.events)[number]>();
  for (const e of recording.events) {
    if (isStatus(e.type)) continue;
    const seen = last.get(e.id);
    if (!seen || e.version >= seen.version) last.set(e.id, e);
  }
  return [...last.values()].filter((e) => !e.withdrawn);
}

Deno.test("[demo] the recording's first 52 minutes are the events the demo seeds", async () => {
  await withTestApp(async (app) => {
    const live = (await listCompetitions(app.kv)).find((c) => c.name === LIVE_NAME)!;
    assert.equal(live.matchId, recording.matchId, "the recording is of the live contest's match");
    const seeded = (await listGameEvents(app.kv, live.id))
      .map((e) => `${e.minute}' ${e.eventType} player ${e.playerId}: ${e.description}`).sort();
    const recorded = recording.events.filter((e) => !isStatus(e.type) && e.minute! <= 52)
      .map((e) => `${e.minute}' ${e.type} player ${e.playerId}: ${e.description}`).sort();
    assert.deepEqual(seeded, recorded);

    // Its goals, on the seeded clubs, make the full-time score it sends: home, then away.
    const match = (await getMatch(app.kv, recording.matchId))!;
    const goals = finalEvents().filter((e) => e.type === "GOAL" || e.type === "OWN_GOAL");
    const players = new Map(
      (await getPlayersByIds(app.kv, new Set(goals.map((e) => e.playerId!)))).map((p) => [p.id, p]),
    );
    const score = [0, 0];
    for (const goal of goals) {
      const home = players.get(goal.playerId!)!.teamId === match.homeTeamId;
      score[home === (goal.type === "GOAL") ? 0 : 1]++;
    }
    const ft = recording.events.find((e) => e.type === "FULL_TIME")!;
    assert.deepEqual(score, [ft.homeScore, ft.awayScore]);
  }, { seed: true });
});

interface Fixture {
  homeTeam: { shortName: string };
  awayTeam: { shortName: string };
  status: string;
  homeScore: number | null;
  awayScore: number | null;
}

/** The README's rehearsal on the demo data of the server at `url`; returns what the replay printed. */
async function rehearse(url: string): Promise<string> {
  const res = await fetch(`${url}/api/admin/feed/providers`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: JSON.stringify({ name: "demo" }),
  });
  assert.equal(res.status, 201);
  const provider: { secrets: { secret: string }[] } = await res.json();
  const replay = await new Deno.Command(Deno.execPath(), {
    args: ["task", "feed:replay", RECORDING_PATH, "--from", "53", "--speed", "3000", "--url", url],
    cwd: ROOT,
    env: { FEED_SECRET: provider.secrets[0].secret, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const printed = new TextDecoder().decode(replay.stdout) + new TextDecoder().decode(replay.stderr);
  assert.equal(replay.code, 0, printed);
  return printed;
}

/** After the rehearsal: the live match is saved with the score its goal events give. */
async function assertScoreIsTheGoals(url: string, printed: string) {
  const all: { id: number; name: string }[] = await (await fetch(`${url}/api/competitions`)).json();
  const live = all.find((c) => c.name === LIVE_NAME)!;
  const { fixture }: { fixture: Fixture } = await (
    await fetch(`${url}/api/competitions/${live.id}`)
  ).json();
  const events: { eventType: string; player: { team: { shortName: string } } }[] = await (
    await fetch(`${url}/api/competitions/${live.id}/events?limit=200`)
  ).json();
  const goals = (club: string, other: string) =>
    events.filter((e) =>
      (e.eventType === "GOAL" && e.player.team.shortName === club) ||
      (e.eventType === "OWN_GOAL" && e.player.team.shortName === other)
    ).length;
  const { homeTeam: home, awayTeam: away } = fixture;
  assert.equal(fixture.status, "COMPLETED", printed);
  assert.deepEqual(
    [fixture.homeScore, fixture.awayScore],
    [goals(home.shortName, away.shortName), goals(away.shortName, home.shortName)],
    "the saved result is what the goal events say",
  );
  assert.deepEqual([fixture.homeScore, fixture.awayScore], [4, 2]);
}

Deno.test("[demo] the rehearsal on npm start saves the score its goals make", async () => {
  const server = await startServer();
  try {
    await assertScoreIsTheGoals(server.url, await rehearse(server.url));
  } finally {
    await server.stop();
  }
});

Deno.test("[demo] the rehearsal on main.ts saves the score its goals make", async () => {
  const dir = await Deno.makeTempDir({ prefix: "demo-rehearsal-" });
  const server = await startMainEntry(`${dir}/app.kv`, { DEMO_DATA: "1" });
  try {
    await assertScoreIsTheGoals(server.url, await rehearse(server.url));
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[demo] the replay's usage names the command that runs after npm install", async () => {
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/feed_replay.ts"],
    cwd: ROOT,
    env: { FEED_SECRET: "", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 2);
  // `deno` is not on PATH after `npm install`: npx runs the one it brought.
  assert.match(
    new TextDecoder().decode(run.stderr),
    /^Usage: FEED_SECRET=… npx deno task feed:replay /,
  );
});
