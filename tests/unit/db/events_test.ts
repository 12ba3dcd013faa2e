import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import {
  ASSIST_FOR_OTHER_CLUB,
  createGameEvent,
  deleteGameEvent,
  listGameEvents,
  NOT_LIVE_MESSAGE,
} from "@/lib/db/events.ts";
import { getLiveVersion } from "@/lib/store/live.ts";
import { getPerformancesMap, savePerformances } from "@/lib/db/performances.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { makeCompetition, makeSquad } from "./_fixtures.ts";

Deno.test("[events] are refused unless the competition is LIVE", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { players } = await makeSquad(kv, competition.id);
  const input = { playerId: players[0].id, eventType: "SAVE" as const };

  for (const status of ["UPCOMING", "COMPLETED"] as const) {
    await t.step(status, async () => {
      await updateCompetition(kv, competition.id, { status });
      await assert.rejects(
        createGameEvent(kv, competition.id, input),
        (err) => err instanceof ConflictError && err.message === NOT_LIVE_MESSAGE,
      );
    });
  }
  assert.equal(
    NOT_LIVE_MESSAGE,
    "Competition is not LIVE. Events should only be created for live competitions.",
  );
  assert.deepEqual(await listGameEvents(kv, competition.id), []);
  assert.equal((await getPerformancesMap(kv, competition.id)).size, 0);
  await assert.rejects(createGameEvent(kv, 999, input), NotFoundError);
  kv.close();
});

Deno.test("[events] refuse a player outside the competition", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const { teams } = await makeSquad(kv, competition.id);
  const outsider = await createPlayer(kv, { name: "Out", position: "FWD", teamId: teams[0].id });
  await assert.rejects(
    createGameEvent(kv, competition.id, { playerId: outsider.id, eventType: "GOAL" }),
    InvalidInputError,
  );
  await assert.rejects(
    createGameEvent(kv, competition.id, { playerId: 4242, eventType: "GOAL" }),
    InvalidInputError,
  );
  kv.close();
});

Deno.test("[events] update the performance and deleting reverses it", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const { players } = await makeSquad(kv, competition.id);
  const striker = players.find((p) => p.position === "FWD")!;
  await savePerformances(kv, competition.id, [{ playerId: striker.id, minutesPlayed: 70 }]);
  const before = (await getPerformancesMap(kv, competition.id)).get(striker.id)!;
  assert.equal(before.totalPoints, 2);
  const liveBefore = await getLiveVersion(kv, competition.id);

  const goal = await createGameEvent(kv, competition.id, {
    playerId: striker.id,
    eventType: "GOAL",
    description: "  Tap-in ",
    minute: 12,
  });
  const yellow = await createGameEvent(kv, competition.id, {
    playerId: striker.id,
    eventType: "YELLOW_CARD",
  });

  const during = (await getPerformancesMap(kv, competition.id)).get(striker.id)!;
  assert.equal(during.goals, 1);
  assert.equal(during.yellowCards, 1);
  assert.equal(during.totalPoints, 2 + 4 - 1);
  assert.equal(during.id, before.id);
  assert.equal(goal.description, "Tap-in");
  assert.equal(yellow.minute, null);
  assert.notEqual(await getLiveVersion(kv, competition.id), liveBefore);

  await deleteGameEvent(kv, competition.id, goal.id);
  await deleteGameEvent(kv, competition.id, yellow.id);
  assert.deepEqual((await getPerformancesMap(kv, competition.id)).get(striker.id), before);
  assert.deepEqual(await listGameEvents(kv, competition.id), []);
  await assert.rejects(deleteGameEvent(kv, competition.id, goal.id), NotFoundError);
  kv.close();
});

Deno.test("[events] a first event creates the performance", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const { players } = await makeSquad(kv, competition.id);
  const keeper = players.find((p) => p.position === "GK")!;
  await createGameEvent(kv, competition.id, { playerId: keeper.id, eventType: "PENALTY_SAVE" });
  const performance = (await getPerformancesMap(kv, competition.id)).get(keeper.id)!;
  assert.equal(performance.penaltySaves, 1);
  assert.equal(performance.totalPoints, 5);
  assert.ok(performance.id > 0);
  kv.close();
});

Deno.test("[events] list newest first with player and team", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const { players, teams } = await makeSquad(kv, competition.id);
  const types = ["GOAL", "ASSIST", "SAVE"] as const;
  for (const [i, eventType] of types.entries()) {
    await createGameEvent(kv, competition.id, { playerId: players[i].id, eventType, minute: i });
  }

  const events = await listGameEvents(kv, competition.id);
  assert.deepEqual(events.map((e) => e.eventType), ["SAVE", "ASSIST", "GOAL"]);
  assert.deepEqual(events[2].player, {
    id: players[0].id,
    name: players[0].name,
    position: players[0].position,
    team: { shortName: teams[0].shortName, name: teams[0].name },
  });
  assert.ok(!Number.isNaN(Date.parse(events[0].timestamp)));
  assert.equal((await listGameEvents(kv, competition.id, { limit: 2 })).length, 2);
  kv.close();
});

Deno.test("[events] parallel events on one player are all counted", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { status: "LIVE" });
  const { players } = await makeSquad(kv, competition.id);
  const mid = players.find((p) => p.position === "MID")!;
  await Promise.all(
    Array.from(
      { length: 10 },
      () => createGameEvent(kv, competition.id, { playerId: mid.id, eventType: "ASSIST" }),
    ),
  );
  const performance = (await getPerformancesMap(kv, competition.id)).get(mid.id)!;
  assert.equal(performance.assists, 10);
  assert.equal(performance.totalPoints, 30);
  kv.close();
});

Deno.test("[events] an assist for the other club's goal is refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const competition = await makeCompetition(kv, { status: "LIVE" });
    const { teams: [home, away], players } = await makeSquad(kv, competition.id);
    const of = (teamId: number, position: string) =>
      players.find((p) => p.teamId === teamId && p.position === position)!;
    await createGameEvent(kv, competition.id, {
      playerId: of(home.id, "FWD").id,
      eventType: "GOAL",
      minute: 30,
    });
    await assert.rejects(
      () =>
        createGameEvent(kv, competition.id, {
          playerId: of(away.id, "MID").id,
          eventType: "ASSIST",
          minute: 30,
        }),
      (err: Error & { issues?: { path: string[] }[] }) => {
        assert.equal(err.message, ASSIST_FOR_OTHER_CLUB);
        assert.deepEqual(err.issues?.[0].path, ["playerId"]);
        return true;
      },
    );
    const teammate = await createGameEvent(kv, competition.id, {
      playerId: of(home.id, "MID").id,
      eventType: "ASSIST",
      minute: 30,
    });
    assert.equal(teammate.eventType, "ASSIST", "the scorer's teammate may assist");
    const events = await listGameEvents(kv, competition.id);
    assert.equal(events.length, 2, "the refused assist changed nothing");
    const performances = await getPerformancesMap(kv, competition.id);
    assert.equal(performances.get(of(away.id, "MID").id)?.assists ?? 0, 0);
  } finally {
    kv.close();
  }
});
