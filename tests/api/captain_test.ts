import assert from "node:assert/strict";
import { createEntry, getEntryByTeamId } from "@/lib/db/entries.ts";
import { CAPTAINS_KEPT, getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { computeStandings } from "@/lib/db/standings.ts";
import {
  CAPTAIN_NOT_PICKED,
  CAPTAIN_OFF,
  CAPTAIN_REQUIRED,
  MULTIPLIER_RANGE,
  VICE_IS_CAPTAIN,
  VICE_NOT_PICKED,
  VICE_REQUIRED,
} from "@/lib/domain/captain.ts";
import { EDIT_LOCKED } from "@/lib/db/entry_edits.ts";
import { SCORING } from "@/lib/domain/scoring.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  SUCCESS_CARD,
  type TestCompetition,
  validPicks,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

type Issue = { path: (string | number)[]; message: string };

/** The field issues of a 400 answer, as {field: message}. */
async function fieldIssues(res: Response): Promise<Record<string, string>> {
  assert.equal(res.status, 400, "a refused captain choice is a 400");
  const body = await readJsonBody(res);
  return Object.fromEntries((body.issues as Issue[]).map((i) => [String(i.path[0]), i.message]));
}

function intent(app: TestApp, body: Record<string, unknown>) {
  return app.request("/api/create-payment-intent", { method: "POST", json: body });
}

/** Opens and pays a payment for this team (picks, captains) and makes its entry. */
async function buy(
  app: TestApp,
  c: TestCompetition,
  team: { playerIds: number[]; captainId?: number; viceCaptainId?: number },
  who: { email: string; teamName: string },
) {
  const opened = await intent(app, { competitionId: c.id, ...who, ...team });
  assert.equal(opened.status, 200, await opened.clone().text());
  const { paymentIntentId } = await opened.json();
  const paid = await app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: SUCCESS_CARD },
  });
  assert.equal(paid.status, 200);
  await paid.body?.cancel();
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { competitionId: c.id, ...who, ...team, stripePaymentId: paymentIntentId },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await readJsonBody(res);
}

/** Points of each team id on the public leaderboard. */
async function board(app: TestApp, cid: number): Promise<Record<string, number>> {
  const res = await app.request(`/api/competitions/${cid}/leaderboard?limit=50`);
  const body = await readJsonBody(res);
  const rows = (body.rows ?? body) as { teamId: string; points: number }[];
  return Object.fromEntries(rows.map((r) => [r.teamId, r.points]));
}

Deno.test("[captain] validation: 400 naming the field, both required when on, refused when off", async () => {
  const app = await makeTestApp();
  try {
    const on = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const off = await makeCompetition(app.kv);
    const picks = validPicks(on);
    const outsider = off.players[0].id;
    const who = { email: "cap@example.com", teamName: "Cap Team" };
    const base = { competitionId: on.id, ...who, playerIds: picks };

    assert.deepEqual(await fieldIssues(await intent(app, base)), {
      captainId: CAPTAIN_REQUIRED,
      viceCaptainId: VICE_REQUIRED,
    });
    assert.deepEqual(
      await fieldIssues(await intent(app, { ...base, captainId: picks[0] })),
      { viceCaptainId: VICE_REQUIRED },
    );
    assert.deepEqual(
      await fieldIssues(
        await intent(app, { ...base, captainId: outsider, viceCaptainId: picks[1] }),
      ),
      { captainId: CAPTAIN_NOT_PICKED },
    );
    assert.deepEqual(
      await fieldIssues(
        await intent(app, { ...base, captainId: picks[0], viceCaptainId: outsider }),
      ),
      { viceCaptainId: VICE_NOT_PICKED },
    );
    assert.deepEqual(
      await fieldIssues(
        await intent(app, { ...base, captainId: picks[0], viceCaptainId: picks[0] }),
      ),
      { viceCaptainId: VICE_IS_CAPTAIN },
    );
    assert.deepEqual(
      await fieldIssues(await intent(app, { ...base, captainId: "x", viceCaptainId: picks[1] })),
      { captainId: "Captain must be a player id" },
    );
    // Off: the plain scoring table, and a captain is refused rather than silently dropped.
    const offBase = { competitionId: off.id, ...who, playerIds: validPicks(off) };
    assert.deepEqual(
      await fieldIssues(await intent(app, { ...offBase, captainId: offBase.playerIds[0] })),
      { captainId: CAPTAIN_OFF },
    );
    const plain = await intent(app, offBase);
    assert.equal(plain.status, 200, "a contest without captains takes a team without them");
    await plain.body?.cancel();

    // The entry request checks the choice's own shape too (before anything is settled).
    const entry = await app.request("/api/entries", {
      method: "POST",
      json: { ...base, captainId: picks[0], viceCaptainId: outsider, stripePaymentId: "pi_x1" },
    });
    assert.deepEqual(await fieldIssues(entry), { viceCaptainId: VICE_NOT_PICKED });

    const ok = await intent(app, { ...base, captainId: picks[0], viceCaptainId: picks[1] });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.equal((await getCompetition(app.kv, on.id))?.currentEntries, 0, "nothing was entered");
  } finally {
    await app.close();
  }
});

Deno.test("[captain] a paid entry keeps its captains; the confirmation e-mail names them", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { captainMultiplier: 2.5 });
    const picks = validPicks(c);
    const answer = await buy(app, c, {
      playerIds: picks,
      captainId: picks[2],
      viceCaptainId: picks[4],
    }, { email: "cap@example.com", teamName: "Armband FC" });
    assert.equal(answer.captainId, picks[2]);
    assert.equal(answer.viceCaptainId, picks[4]);
    const entry = await getEntryByTeamId(app.kv, answer.teamId);
    assert.equal(entry?.captainId, picks[2]);
    assert.equal(entry?.viceCaptainId, picks[4]);

    const mail = (await listOutbox(app.kv)).find((m) => m.to === "cap@example.com");
    assert.ok(mail, "the confirmation is in the outbox");
    const captain = c.players.find((p) => p.id === picks[2])!;
    const vice = c.players.find((p) => p.id === picks[4])!;
    assert.match(mail.text, new RegExp(`${captain.name} \\([^)]*\\), captain ×2\\.5`));
    assert.match(mail.text, new RegExp(`${vice.name} \\([^)]*\\), vice-captain`));
    assert.match(mail.html ?? "", /captain ×2\.5/);

    // Picks are public once they lock (before, only the owner sees them).
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const details = await readJsonBody(
      await app.request(`/api/entries/${answer.teamId}/details`),
    );
    const roles = Object.fromEntries(
      details.players.map((p: { id: number; captain: string | null }) => [p.id, p.captain]),
    );
    assert.equal(roles[picks[2]], "C");
    assert.equal(roles[picks[4]], "V");
    assert.equal(roles[picks[0]], null);
    assert.equal(details.entry.captainMultiplier, 2.5);
  } finally {
    await app.close();
  }
});

Deno.test("[captain] scoring: ×2 on the captain, the vice-captain once it is over and the captain played 0 minutes, a corrected goal drops 2 × its points", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const picks = validPicks(c); // GK, DEF, MID (first club), DEF, FWD (second club)
    const [, , mid, , fwd] = picks;
    const teams = validTeams(c);
    const other = teams.find((t) =>
      t.includes(mid) && t.includes(fwd) && t.join() !== picks.join()
    )!;
    const entryOf = async (playerIds: number[], captainId: number, viceCaptainId: number) =>
      (await createEntry(app.kv, {
        competitionId: c.id,
        email: `fan${captainId}.${viceCaptainId}@example.com`,
        teamName: `Fans ${captainId}-${viceCaptainId}`,
        playerIds,
        stripePaymentId: `pi_cap_${captainId}_${viceCaptainId}`,
        captainId,
        viceCaptainId,
      })).entry;
    const midCaptain = await entryOf(picks, mid, fwd);
    const fwdCaptain = await entryOf(other, fwd, mid);
    const plain = await createEntry(app.kv, {
      competitionId: c.id,
      email: "plain@example.com",
      teamName: "No Armband",
      playerIds: teams.find((t) =>
        t.includes(mid) && t.includes(fwd) && t !== other && t.join() !== picks.join()
      )!,
      stripePaymentId: "pi_cap_plain",
    });
    assert.equal(plain.entry.captainId, undefined, "an entry made without captains has none");
    await updateCompetition(app.kv, c.id, { status: "LIVE" });

    const perf = (minutes: number) => ({
      performances: [mid, fwd].map((playerId) => ({ playerId, minutesPlayed: minutes })),
    });
    const saved = await app.request(`/api/admin/competitions/${c.id}/performances`, {
      method: "POST",
      headers: admin,
      json: perf(90),
    });
    assert.equal(saved.status, 200);
    await saved.body?.cancel();
    // Both played 60+ minutes: 2 points each.
    let points = await board(app, c.id);
    assert.equal(points[midCaptain.teamId], 2 * 2 + 2);
    assert.equal(points[fwdCaptain.teamId], 2 + 2 * 2);
    assert.equal(points[plain.entry.teamId], 2 + 2);

    const goal = await app.request(`/api/admin/competitions/${c.id}/events`, {
      method: "POST",
      headers: admin,
      json: { playerId: mid, eventType: "GOAL", minute: 31 },
    });
    assert.equal(goal.status, 201);
    const goalEvent = await readJsonBody(goal);
    const goalPoints = SCORING.MID.goal;
    const before = await board(app, c.id);
    assert.equal(before[midCaptain.teamId], (2 + goalPoints) * 2 + 2);
    assert.equal(before[fwdCaptain.teamId], 2 + goalPoints + 2 * 2);

    // The breakdown explains the captain's points, its lines summing to the total.
    const details = await readJsonBody(
      await app.request(`/api/entries/${midCaptain.teamId}/details`),
    );
    const captainRow = details.players.find((p: { id: number }) => p.id === mid);
    assert.equal(captainRow.points, (2 + goalPoints) * 2);
    const line = captainRow.breakdown.find((l: { label: string }) => l.label === "Captain ×2");
    assert.deepEqual(
      { count: line.count, value: line.value, points: line.points },
      { count: 2 + goalPoints, value: 1, points: 2 + goalPoints },
    );
    assert.equal(
      captainRow.breakdown.reduce((sum: number, l: { points: number }) => sum + l.points, 0),
      captainRow.points,
    );
    assert.equal(details.entry.totalPoints, before[midCaptain.teamId]);

    // A stat correction: the goal is withdrawn.
    const removed = await app.request(
      `/api/admin/competitions/${c.id}/events/${goalEvent.id}`,
      { method: "DELETE", headers: admin },
    );
    assert.ok(removed.status === 200 || removed.status === 204, String(removed.status));
    await removed.body?.cancel();
    const after = await board(app, c.id);
    assert.equal(
      before[midCaptain.teamId] - after[midCaptain.teamId],
      2 * goalPoints,
      "the captain's corrected goal costs multiplier × goal points",
    );
    assert.equal(before[fwdCaptain.teamId] - after[fwdCaptain.teamId], goalPoints);
    assert.equal(before[plain.entry.teamId] - after[plain.entry.teamId], goalPoints);

    // No minutes recorded for the captain while the contest is live: he keeps the armband (he
    // may be on the pitch with his minutes not entered yet).
    const benched = await app.request(`/api/admin/competitions/${c.id}/performances`, {
      method: "POST",
      headers: admin,
      json: {
        performances: [{ playerId: mid, minutesPlayed: 0 }, { playerId: fwd, minutesPlayed: 90 }],
      },
    });
    assert.equal(benched.status, 200);
    await benched.body?.cancel();
    points = await board(app, c.id);
    assert.equal(points[midCaptain.teamId], 0 + 2, "in play: the captain's 0 counts ×2, no vice");
    // Over (a contest on no match ends with its status) and he did not play: the vice takes it.
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
    points = await board(app, c.id);
    assert.equal(points[midCaptain.teamId], 0 + 2 * 2, "the vice-captain (FWD) takes the ×2");
    assert.equal(points[fwdCaptain.teamId], 2 * 2);
    assert.equal(points[plain.entry.teamId], 2);
    const viceDetails = await readJsonBody(
      await app.request(`/api/entries/${midCaptain.teamId}/details`),
    );
    const viceRow = viceDetails.players.find((p: { id: number }) => p.id === fwd);
    assert.equal(viceRow.captain, "V");
    assert.equal(viceRow.points, 4);
    assert.ok(viceRow.breakdown.some((l: { label: string }) => l.label === "Vice-captain ×2"));

    // The full read of the entries (prizes on completion) ranks the same points.
    const standings = await computeStandings(app.kv, c.id);
    for (const row of standings) assert.equal(row.points, points[row.teamId], row.teamId);
  } finally {
    await app.close();
  }
});

/** The rows of GET /api/competitions/{id}/leaderboard (`query` e.g. "limit=1&teamIds=A"). */
async function rowsOf(app: TestApp, cid: number, query = "limit=50") {
  const res = await app.request(`/api/competitions/${cid}/leaderboard?${query}`);
  assert.equal(res.status, 200);
  return await readJsonBody(res) as Record<string, unknown>[];
}

/** The row fields of competitions without captains, as the leaderboard answered before captains. */
const PLAIN_ROW_FIELDS = [
  "id",
  "teamId",
  "teamName",
  "displayName",
  "points",
  "rank",
  "prize",
  "prizeType",
  "customPrizeDescription",
];

Deno.test("[captain] leaderboard rows name the captain and vice-captain once the contest started; rows of a contest without captains are as before", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const off = await makeCompetition(app.kv);
    const picks = validPicks(c);
    const [, , mid, , fwd] = picks;
    const other = validTeams(c).find((t) =>
      t.includes(mid) && t.includes(fwd) && t.join() !== picks.join()
    )!;
    const nameOf = (id: number) => c.players.find((p) => p.id === id)!.name;
    const make = (teamName: string, playerIds: number[], captains = {}) =>
      createEntry(app.kv, {
        competitionId: c.id,
        email: `${teamName.replaceAll(" ", ".")}@example.com`,
        teamName,
        playerIds,
        stripePaymentId: `pi_board_${teamName.replaceAll(" ", "_")}`,
        ...captains,
      }).then((made) => made.entry);
    const midFirst = await make("Mid Armband", picks, { captainId: mid, viceCaptainId: fwd });
    const fwdFirst = await make("Fwd Armband", other, { captainId: fwd, viceCaptainId: mid });
    const bare = await make("No Armband", picks.slice().reverse());
    await makeEntry(app.kv, off, { teamName: "Plain One" });

    // Before kick-off the choices stay hidden, as the teams do.
    for (const row of await rowsOf(app, c.id)) assert.deepEqual(Object.keys(row), PLAIN_ROW_FIELDS);
    const upcoming = await (await app.request(`/leaderboard/${c.id}`)).text();
    assert.ok(!upcoming.includes("data-captains"), "no captain marks before kick-off");

    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, off.id, { status: "LIVE" });
    const expected = {
      [midFirst.teamId]: { captainName: nameOf(mid), viceCaptainName: nameOf(fwd) },
      [fwdFirst.teamId]: { captainName: nameOf(fwd), viceCaptainName: nameOf(mid) },
      [bare.teamId]: {},
    };
    const captainsOf = (rows: Record<string, unknown>[]) =>
      Object.fromEntries(rows.map((r) => {
        const { captainName, viceCaptainName } = r as Record<string, string | undefined>;
        return [r.teamId as string, {
          ...(captainName ? { captainName } : {}),
          ...(viceCaptainName ? { viceCaptainName } : {}),
        }];
      }));
    const live = await rowsOf(app, c.id);
    assert.deepEqual(captainsOf(live), expected);
    assert.deepEqual(
      Object.keys(live.find((r) => r.teamId === bare.teamId)!),
      [...PLAIN_ROW_FIELDS, "picksToPlay"],
      "a team without captains: the SPEC's fields and how many picks are still to play",
    );
    assert.deepEqual(
      live.map((r) => r.teamId),
      [midFirst.teamId, fwdFirst.teamId, bare.teamId],
      "level on 0 points: entry order",
    );
    for (const row of await rowsOf(app, off.id)) {
      assert.deepEqual(
        Object.keys(row),
        [...PLAIN_ROW_FIELDS, "picksToPlay"],
        "no captain fields without the option",
      );
    }

    // Points move the rows (the live push refetches them): each keeps its own captains.
    const played = async (cid: number, ids: number[]) => {
      const saved = await app.request(`/api/admin/competitions/${cid}/performances`, {
        method: "POST",
        headers: admin,
        json: { performances: ids.map((playerId) => ({ playerId, minutesPlayed: 90 })) },
      });
      assert.equal(saved.status, 200);
      await saved.body?.cancel();
    };
    await played(c.id, [mid, fwd]);
    await played(off.id, validPicks(off));
    const goal = await app.request(`/api/admin/competitions/${c.id}/events`, {
      method: "POST",
      headers: admin,
      json: { playerId: fwd, eventType: "GOAL", minute: 12 },
    });
    assert.equal(goal.status, 201);
    await goal.body?.cancel();
    const moved = await rowsOf(app, c.id);
    assert.equal(moved[0].teamId, fwdFirst.teamId, "the forward's captain went top");
    assert.deepEqual(captainsOf(moved), expected);
    // Once scored, the page renders the marks with words for screen readers; the contest without has none.
    const page = await (await app.request(`/leaderboard/${c.id}`)).text();
    assert.ok(page.includes(`Captain: ${nameOf(mid)}, vice-captain: ${nameOf(fwd)}`));
    assert.ok(page.includes(`Captain: ${nameOf(fwd)}, vice-captain: ${nameOf(mid)}`));
    assert.equal(page.split("data-captains").length - 1, 2, "one mark per captained row");
    const plain = await (await app.request(`/leaderboard/${off.id}`)).text();
    assert.ok(plain.includes("Plain One"));
    assert.ok(!plain.includes("data-captains") && !plain.includes("Captain:"));

    // A visitor's own rows beyond the page carry them too.
    const own = await rowsOf(app, c.id, `limit=1&teamIds=${midFirst.teamId},${bare.teamId}`);
    assert.deepEqual(own.map((r) => r.teamId), [fwdFirst.teamId, midFirst.teamId, bare.teamId]);
    assert.deepEqual(captainsOf(own), expected);
  } finally {
    await app.close();
  }
});

Deno.test("[captain] the edit link changes the captains until the deadline", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const picks = validPicks(c);
    const answer = await buy(app, c, {
      playerIds: picks,
      captainId: picks[0],
      viceCaptainId: picks[1],
    }, { email: "edit@example.com", teamName: "Edit FC" });
    const token = answer.editToken as string;
    const shown = await readJsonBody(await app.request(`/api/team-edits/${token}`));
    assert.deepEqual([shown.captainId, shown.viceCaptainId], [picks[0], picks[1]]);

    const put = (body: Record<string, unknown>) =>
      app.request(`/api/team-edits/${token}`, { method: "PUT", json: body });
    const base = { teamName: "Edit FC", playerIds: picks, revision: 0 };
    assert.deepEqual(await fieldIssues(await put(base)), {
      captainId: CAPTAIN_REQUIRED,
      viceCaptainId: VICE_REQUIRED,
    });
    assert.deepEqual(
      await fieldIssues(await put({ ...base, captainId: picks[3], viceCaptainId: picks[3] })),
      { viceCaptainId: VICE_IS_CAPTAIN },
    );
    const saved = await put({ ...base, captainId: picks[3], viceCaptainId: picks[0] });
    assert.equal(saved.status, 200, await saved.clone().text());
    const view = await readJsonBody(saved);
    assert.deepEqual([view.captainId, view.viceCaptainId], [picks[3], picks[0]]);
    const entry = await getEntryByTeamId(app.kv, answer.teamId);
    assert.deepEqual([entry?.captainId, entry?.viceCaptainId], [picks[3], picks[0]]);

    // Past the deadline the captains are locked with the team.
    await updateCompetition(app.kv, c.id, { deadline: new Date(Date.now() - 1000).toISOString() });
    const late = await put({ ...base, revision: 1, captainId: picks[4], viceCaptainId: picks[0] });
    assert.equal(late.status, 409);
    assert.equal((await readJsonBody(late)).message, EDIT_LOCKED);
    const kept = await getEntryByTeamId(app.kv, answer.teamId);
    assert.equal(kept?.captainId, picks[3], "a refused edit changes nothing");
  } finally {
    await app.close();
  }
});

Deno.test("[captain] admin option: multiplier 1.5–3 validated, off by default, kept once entries exist", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const body = {
      name: "Armband Cup",
      league: "PREMIER_LEAGUE",
      entryFee: 10,
      prizePool: 100,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const post = (extra: Record<string, unknown>) =>
      app.request("/api/admin/competitions", {
        method: "POST",
        headers: admin,
        json: { ...body, ...extra },
      });
    for (const bad of [1, 1.4, 3.5, 2.25, "two"]) {
      const res = await post({ captainMultiplier: bad });
      assert.deepEqual(
        await fieldIssues(res),
        { captainMultiplier: MULTIPLIER_RANGE },
        String(bad),
      );
    }
    const plain = await readJsonBody(await post({}));
    assert.equal(plain.captainMultiplier, null, "off unless asked for");
    const created = await post({ captainMultiplier: "1.5" });
    assert.equal(created.status, 201);
    const on = await readJsonBody(created);
    assert.equal(on.captainMultiplier, 1.5);

    const put = (id: number, extra: Record<string, unknown>) =>
      app.request(`/api/admin/competitions/${id}`, {
        method: "PUT",
        headers: admin,
        json: { ...body, ...extra },
      });
    const changed = await put(on.id, { captainMultiplier: 3 });
    assert.equal(changed.status, 200, "no entries yet: the option may change");
    assert.equal((await readJsonBody(changed)).captainMultiplier, 3);

    const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const picks = validPicks(c);
    await buy(app, c, { playerIds: picks, captainId: picks[0], viceCaptainId: picks[1] }, {
      email: "kept@example.com",
      teamName: "Kept FC",
    });
    const refused = await put(c.id, { captainMultiplier: null });
    assert.equal(refused.status, 409);
    const answer = await readJsonBody(refused);
    assert.equal(answer.message, CAPTAINS_KEPT);
    assert.equal(answer.issues[0].path[0], "captainMultiplier");
    assert.equal((await getCompetition(app.kv, c.id))?.captainMultiplier, 2);
    const same = await put(c.id, { captainMultiplier: 2, name: "Renamed" });
    assert.equal(same.status, 200, "other fields still change");
    await same.body?.cancel();
  } finally {
    await app.close();
  }
});
