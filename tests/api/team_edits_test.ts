import assert from "node:assert/strict";
import { getEntryByTeamId, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { EDIT_LOCKED, EDIT_REFUNDED, EDIT_STALE } from "@/lib/db/entry_edits.ts";
import { LOCKED_LIVE } from "@/lib/domain/competition.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { PERSON_LIMIT_REACHED, SAME_TEAM_AGAIN } from "@/lib/domain/paid_entry.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

/** A paid entry made through the API, with the edit secret its answer gives the payer. */
async function paidEntry(app: TestApp, c: TestCompetition, body: Record<string, unknown> = {}) {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { ...entryBody(c, paymentId), ...body },
  });
  assert.equal(res.status, 201);
  const answer = await readJsonBody(res);
  return { paymentId, teamId: answer.teamId as string, token: answer.editToken as string };
}

function put(app: TestApp, token: string, body: Record<string, unknown>) {
  return app.request(`/api/team-edits/${token}`, { method: "PUT", json: body });
}

Deno.test("[team edits] the payer changes picks and name for free until the deadline", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    const { teamId, token } = await paidEntry(app, c, { playerIds: first });
    assert.match(token, /^[0-9a-f]{32}$/);

    const boardNames = async () => {
      const res = await app.request(`/api/competitions/${c.id}/leaderboard?limit=10`);
      const board = await readJsonBody(res);
      return (board.rows ?? board).map((r: { teamName: string }) => r.teamName);
    };
    assert.deepEqual(await boardNames(), ["Jane's Team"], "the leaderboard was read before");
    const shown = await readJsonBody(await app.request(`/api/team-edits/${token}`));
    assert.deepEqual(shown.playerIds, first);
    assert.equal(shown.revision, 0);
    assert.equal(shown.locked, null);

    const res = await put(app, token, { teamName: "Late Changes", playerIds: second, revision: 0 });
    assert.equal(res.status, 200);
    const saved = await readJsonBody(res);
    assert.deepEqual(saved.playerIds, second);
    assert.equal(saved.revision, 1);

    const entry = await getEntryByTeamId(app.kv, teamId);
    assert.deepEqual(entry?.playerIds, second);
    assert.equal(entry?.teamName, "Late Changes");
    assert.equal(entry?.amountPaid, 1000, "an edit charges nothing and keeps what was paid");
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
    assert.equal((await getCompetition(app.kv, c.id))?.currentEntries, 1);
    const pub = await readJsonBody(await app.request(`/api/entries/${teamId}`));
    assert.equal(pub.teamName, "Late Changes");
    assert.deepEqual(await boardNames(), ["Late Changes"], "and follows the edit");
    // Picks are private until they lock: the public list shows them once the contest is live.
    assert.deepEqual(
      await readJsonBody(await app.request(`/api/entries/${teamId}/players`)),
      [],
    );
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const players = await readJsonBody(await app.request(`/api/entries/${teamId}/players`));
    assert.deepEqual(
      players.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b),
      [...second].sort((a, b) => a - b),
      "the team's players follow the edit",
    );
    assert.equal("editToken" in pub, false, "the public view never shows the secret");
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] unknown links are 404 and bad input is a 400 that changes nothing", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const [first] = validTeams(c);
    const { teamId, token } = await paidEntry(app, c, { playerIds: first });
    for (const bad of ["0".repeat(32), "nope", "..%2F..%2Fx"]) {
      const res = await app.request(`/api/team-edits/${bad}`);
      assert.equal(res.status, 404, bad);
      assert.equal((await readJsonBody(res)).message, "Entry not found");
    }
    const oneClub = c.players.filter((p) => p.teamId === c.teams[0].id).map((p) => p.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ teamName: "Ok Name", playerIds: oneClub, revision: 0 }, "playerIds"],
      [
        { teamName: "Ok Name", playerIds: [...first.slice(0, 4), 999999], revision: 0 },
        "playerIds",
      ],
      [{ teamName: "x", playerIds: first, revision: 0 }, "teamName"],
      [{ teamName: "Ok Name", playerIds: first, revision: -1 }, "revision"],
    ];
    for (const [body, field] of cases) {
      const res = await put(app, token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = await readJsonBody(res);
      assert.equal(answer.issues[0].path[0], field);
    }
    const entry = await getEntryByTeamId(app.kv, teamId);
    assert.deepEqual(entry?.playerIds, first);
    assert.equal(entry?.revision, 0);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] two windows editing at once: one saves, the other is told to reload", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const teams = validTeams(c);
    const { teamId, token } = await paidEntry(app, c, { playerIds: teams[0] });
    const answers = await Promise.all(
      teams.slice(1, 7).map((playerIds, i) =>
        put(app, token, { teamName: `Window ${i}`, playerIds, revision: 0 })
          .then(async (res) => ({ status: res.status, body: await readJsonBody(res) }))
      ),
    );
    const saved = answers.filter((a) => a.status === 200);
    assert.equal(saved.length, 1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      assert.equal(a.status, 409);
      assert.equal(a.body.message, EDIT_STALE);
    }
    const entry = await getEntryByTeamId(app.kv, teamId);
    assert.equal(entry?.revision, 1);
    assert.deepEqual(entry?.playerIds, saved[0].body.playerIds);
    assert.equal(entry?.teamName, saved[0].body.teamName);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] after the deadline, or once live, the team is locked", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    const { teamId, token } = await paidEntry(app, c, { playerIds: first });
    await updateCompetition(app.kv, c.id, { deadline: new Date(Date.now() - 1000).toISOString() });
    const late = await put(app, token, { teamName: "Too Late", playerIds: second, revision: 0 });
    assert.equal(late.status, 409);
    assert.equal((await readJsonBody(late)).message, EDIT_LOCKED);
    const view = await readJsonBody(await app.request(`/api/team-edits/${token}`));
    assert.equal(view.locked, EDIT_LOCKED);
    assert.deepEqual((await getEntryByTeamId(app.kv, teamId))?.playerIds, first);

    const page = await app.request(`/edit/${token}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    const html = await page.text();
    assert.match(html, /data-locked-team/);
    assert.match(html, /The deadline has passed: this team is locked\./);

    // Gone LIVE an hour before its deadline: the page says the contest went live, not the deadline.
    const early = await makeCompetition(app.kv);
    const paid = await paidEntry(app, early, { playerIds: validTeams(early)[0] });
    await updateCompetition(app.kv, early.id, { status: "LIVE" });
    const refused = await put(app, paid.token, {
      teamName: "Nope",
      playerIds: second,
      revision: 0,
    });
    assert.equal(refused.status, 409);
    assert.equal((await readJsonBody(refused)).message, LOCKED_LIVE);
    const livePage = await (await app.request(`/edit/${paid.token}`)).text();
    assert.match(livePage, /The contest went live: this team is locked\./);
    assert.doesNotMatch(livePage, /deadline has passed/);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] edits racing the competition going live: none is saved after it", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const teams = validTeams(c);
    const { teamId, token } = await paidEntry(app, c, { playerIds: teams[0] });
    let revision = 0;
    let saves = 0;
    let goneLive: boolean = false;
    let kickOff: Promise<void> | null = null;
    for (let i = 1; i < 40; i++) {
      const startedLive: boolean = goneLive;
      const res = await put(app, token, {
        teamName: `Try ${i}`,
        playerIds: teams[i % teams.length],
        revision,
      });
      const body = await readJsonBody(res);
      if (res.status === 200) {
        assert.equal(startedLive, false, "an edit started after the kick-off was saved");
        revision = body.revision;
        saves++;
      } else {
        assert.equal(res.status, 409);
        assert.equal(body.message, LOCKED_LIVE);
      }
      // The kick-off is written while the next edits are under way.
      if (saves === 5 && !kickOff) {
        kickOff = updateCompetition(app.kv, c.id, { status: "LIVE" }).then(() => {
          goneLive = true;
        });
      }
    }
    await kickOff;
    const entry = await getEntryByTeamId(app.kv, teamId);
    assert.equal(entry?.revision, saves);
    assert.ok(saves >= 5 && saves < 39, `saves: ${saves}`);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] the payer's other teams: no duplicate, and the old team frees up", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
    const [a, b, d] = validTeams(c);
    const one = await paidEntry(app, c, { playerIds: a, teamName: "One" });
    await paidEntry(app, c, { playerIds: b, teamName: "Two" });
    const dup = await put(app, one.token, { teamName: "Dup", playerIds: b, revision: 0 });
    assert.equal(dup.status, 409);
    assert.equal((await readJsonBody(dup)).message, SAME_TEAM_AGAIN);

    const moved = await put(app, one.token, { teamName: "Moved", playerIds: d, revision: 0 });
    assert.equal(moved.status, 200);
    await moved.body?.cancel();
    const again = await app.request("/api/create-payment-intent", {
      method: "POST",
      json: { competitionId: c.id, email: "jane@example.com", teamName: "Again", playerIds: a },
    });
    assert.equal(again.status, 200, "team a is free again for this payer");
    const opened = await readJsonBody(again);
    assert.equal(opened.entriesAllowed, 3);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] a refunded entry cannot change", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    const { token } = await paidEntry(app, c, { playerIds: first });
    const cancel = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
      method: "POST",
      headers: admin,
      json: { reason: "Match postponed" },
    });
    assert.ok(cancel.status < 300, `cancel: ${cancel.status}`);
    await cancel.body?.cancel();
    const res = await put(app, token, { teamName: "After", playerIds: second, revision: 0 });
    assert.equal(res.status, 409);
    assert.match((await readJsonBody(res)).message, new RegExp(`${EDIT_REFUNDED}|${EDIT_LOCKED}`));
  } finally {
    await app.close();
  }
});

Deno.test("[one fair entry] the limit and the same team are refused before any payment", async () => {
  const app = await makeTestApp();
  const provider = app.services.payments as TestPaymentProvider;
  try {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    await paidEntry(app, c, { email: "sam@example.com", playerIds: first });
    const intents = (body: Record<string, unknown>) =>
      app.request("/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id, teamName: "Sam Again", ...body },
      });
    const unpaid = async () =>
      (await provider.listUnpaidIntents(new Date(Date.now() + 60_000), 1000)).length;
    const before = await unpaid();
    const over = await intents({ email: "SAM@example.com ", playerIds: second });
    assert.equal(over.status, 409);
    assert.equal((await readJsonBody(over)).message, PERSON_LIMIT_REACHED);

    await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
    const same = await intents({ email: "sam@example.com", playerIds: [...first].reverse() });
    assert.equal(same.status, 409);
    assert.equal((await readJsonBody(same)).message, SAME_TEAM_AGAIN);
    assert.equal(await unpaid(), before, "no payment was opened for a refused entry");

    const ok = await intents({ email: "sam@example.com", playerIds: second });
    assert.equal(ok.status, 200);
    const answer = await readJsonBody(ok);
    assert.equal(answer.entryNumber, undefined, "which entry it is, is not told to any payer");
    assert.equal(answer.entriesAllowed, 3);
  } finally {
    await app.close();
  }
});

Deno.test("[team edits] the confirmation e-mail carries the private edit link", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const { token } = await paidEntry(app, c);
    const mail = (await listOutbox(app.kv)).find((m) => m.subject.includes("is confirmed"));
    assert.ok(mail, "a confirmation was sent");
    assert.ok(mail.text.includes(`/edit/${token}`));
    assert.ok(mail.html?.includes(`/edit/${token}`));
  } finally {
    await app.close();
  }
});

Deno.test("[ownership] who picked whom shows only once teams are locked", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const teams = validTeams(c);
    const first = await paidEntry(app, c, {
      email: "a@example.com",
      teamName: "Team A",
      playerIds: teams[0],
    });
    await paidEntry(app, c, { email: "b@example.com", teamName: "Team B", playerIds: teams[1] });
    const pickedBy = async () => {
      const res = await app.request(`/api/entries/${first.teamId}/details`);
      const body = await readJsonBody(res);
      return new Map<number, number | null>(
        body.players.map((p: { id: number; pickedBy: number | null }) => [p.id, p.pickedBy]),
      );
    };
    for (const share of (await pickedBy()).values()) assert.equal(share, null, "hidden while open");
    const page = await (await app.request(`/team-selection/${c.id}`)).text();
    assert.doesNotMatch(page, /data-most-picked/);

    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const shares = await pickedBy();
    for (const id of teams[0]) {
      const expected = teams[1].includes(id) ? 1 : 0.5;
      assert.equal(shares.get(id), expected, `player ${id}`);
    }
    const locked = await (await app.request(`/team-selection/${c.id}`)).text();
    assert.match(locked, /data-most-picked/);
    const text = locked.replace(/<[^>]+>/g, "");
    assert.match(text, /Picked by 100%/);
    assert.match(text, /Picked by 50%/);
  } finally {
    await app.close();
  }
});
