import assert from "node:assert/strict";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  loginCookie,
  makeCompetition,
  makeEntry,
  validTeams,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";
import { keys } from "@/lib/store/keys.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import {
  ALREADY_MEMBER,
  CODE_EXPIRED,
  LEAGUE_FULL,
  LEAGUE_NAME_TAKEN,
  TOO_MANY_LEAGUES,
  WRONG_CODE,
} from "@/lib/db/leagues.ts";
import {
  JOIN_CODE_TRIES,
  JOIN_CODES_PER_HOUR,
  LEAGUES_PER_HOUR,
  MAX_LEAGUE_MEMBERS,
  MAX_LEAGUES_PER_ENTRY,
} from "@/lib/domain/leagues.ts";
import type { Entry } from "@/lib/domain/types.ts";

const owner = (e: Entry) => ({ teamId: e.teamId, editToken: e.editToken });

async function post(app: TestApp, path: string, json: unknown) {
  const res = await app.request(path, { method: "POST", json });
  return { status: res.status, headers: res.headers, body: await readJsonBody(res) };
}

async function createLeague(app: TestApp, entry: Entry, name: string): Promise<string> {
  const res = await post(app, "/api/leagues", { ...owner(entry), name });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.league.id;
}

/** The code of the newest league e-mail to `to`. */
async function codeMailedTo(kv: Deno.Kv, to: string): Promise<string> {
  const mail = (await listOutbox(kv)).find((m) => m.to === to);
  const code = mail?.text.match(/Your code: (\d{6})/)?.[1];
  assert.ok(code, `a code e-mailed to ${to}`);
  return code;
}

Deno.test("[leagues] create, join with an own entry, ranks within the league and the contest, leave", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "League Cup" });
    const a = await makeEntry(app.kv, c, { teamName: "Alpha" });
    const outsider = await makeEntry(app.kv, c, { teamName: "Outsider" });
    const bPicks = validTeams(c).find((team) => team.some((id) => !a.playerIds.includes(id)))!;
    const scorer = bPicks.find((id) => !a.playerIds.includes(id))!;
    const b = await makeEntry(app.kv, c, { teamName: "Bravo", playerIds: bPicks });
    let id = "";

    await t.step("an entrant creates a league and gets an unguessable invite link", async () => {
      const res = await post(app, "/api/leagues", { ...owner(a), name: "  Office Friends " });
      assert.equal(res.status, 201);
      id = res.body.league.id;
      assert.match(id, /^[\w-]{22}$/, "128 random bits, URL-safe");
      assert.equal(res.body.inviteUrl, `http://localhost/leagues/${id}`);
      assert.equal(res.body.league.name, "Office Friends");
      assert.equal(res.body.league.memberCount, 1, "its creator's entry is its first member");
      assert.equal(res.body.league.competitionId, c.id);
    });

    await t.step("a team ID without this browser's edit secret creates nothing", async () => {
      const res = await post(app, "/api/leagues", {
        teamId: a.teamId,
        editToken: b.editToken,
        name: "Not Mine",
      });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /does not hold the edit link/);
    });

    await t.step("another browser adds its own entry through the invite", async () => {
      const res = await post(app, `/api/leagues/${id}/members`, owner(b));
      assert.equal(res.status, 201);
      assert.equal(res.body.league.memberCount, 2);
      const again = await post(app, `/api/leagues/${id}/members`, owner(b));
      assert.equal(again.status, 409);
      assert.equal(again.body.message, ALREADY_MEMBER);
    });

    await t.step("the board ranks members within the league and in the contest", async () => {
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      await savePerformances(app.kv, c.id, [{ playerId: scorer, goals: 2 }]);
      const res = await app.request(`/api/leagues/${id}`);
      assert.equal(res.status, 200);
      const board = await readJsonBody(res);
      assert.equal(board.total, 2);
      assert.deepEqual(board.rows.map((r: { teamId: string }) => r.teamId), [b.teamId, a.teamId]);
      assert.deepEqual(board.rows.map((r: { rank: number }) => r.rank), [1, 2]);
      const contest = await readJsonBody(
        await app.request(`/api/competitions/${c.id}/leaderboard`),
      );
      const contestRank = (teamId: string) =>
        contest.find((r: { teamId: string }) => r.teamId === teamId).rank;
      assert.deepEqual(
        board.rows.map((r: { contestRank: number }) => r.contestRank),
        [contestRank(b.teamId), contestRank(a.teamId)],
      );
      assert.ok(!board.rows.some((r: { teamId: string }) => r.teamId === outsider.teamId));
      assert.doesNotMatch(JSON.stringify(board), /@example\.com|pi_/, "no address, no payment");
    });

    await t.step("an entry leaves with its edit secret; the board and count follow", async () => {
      const res = await post(app, `/api/leagues/${id}/leave`, owner(b));
      assert.equal(res.status, 200);
      const board = await readJsonBody(await app.request(`/api/leagues/${id}`));
      assert.equal(board.league.memberCount, 1);
      assert.deepEqual(board.rows.map((r: { teamId: string }) => r.teamId), [a.teamId]);
      assert.equal((await app.kv.get(keys.leagueCountOfEntry(b.id))).value, 0);
      const twice = await post(app, `/api/leagues/${id}/leave`, owner(b));
      assert.equal(twice.status, 404);
    });

    await t.step("unknown leagues are 404s, not errors", async () => {
      for (const bad of ["nope", "x".repeat(22), "%F0%9F%92%A9".repeat(3)]) {
        const res = await app.request(`/api/leagues/${bad}`);
        assert.equal(res.status, 404);
        await res.body?.cancel();
      }
    });
  });
});

Deno.test("[leagues] join by team ID and a code e-mailed to the entry's address", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Code Cup" });
    const other = await makeCompetition(app.kv, { name: "Other Cup" });
    const a = await makeEntry(app.kv, c);
    const friend = await makeEntry(app.kv, c, { email: "friend@example.com" });
    const elsewhere = await makeEntry(app.kv, other);
    const id = await createLeague(app, a, "Code Friends");
    let memberToken = "";

    await t.step("the code goes to the entry's own address, never in the answer", async () => {
      const res = await post(app, `/api/leagues/${id}/codes`, { teamId: friend.teamId });
      assert.equal(res.status, 202);
      assert.doesNotMatch(res.body.message, /@|\*\*\*/, "nothing of the owner's address");
      const code = await codeMailedTo(app.kv, "friend@example.com");
      assert.doesNotMatch(JSON.stringify(res.body), new RegExp(code));
      const mail = (await listOutbox(app.kv)).find((m) => m.to === "friend@example.com")!;
      assert.equal(mail.subject, "Your code to join a league");
      assert.match(mail.text, /the league "Code Friends"/);
      assert.match(mail.text, new RegExp(`/leagues/${id}`));
    });

    await t.step("a wrong code is refused and uses up a try", async () => {
      const code = await codeMailedTo(app.kv, "friend@example.com");
      const wrong = code === "000000" ? "111111" : "000000";
      const res = await post(app, `/api/leagues/${id}/members`, {
        teamId: friend.teamId,
        code: wrong,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, WRONG_CODE);
      const malformed = await post(app, `/api/leagues/${id}/members`, {
        teamId: friend.teamId,
        code: "12ab",
      });
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.message, /6 digits/);
      const board = await readJsonBody(await app.request(`/api/leagues/${id}`));
      assert.equal(board.league.memberCount, 1, "nothing joined");
    });

    await t.step("the right code joins and gives a secret to leave again", async () => {
      const code = await codeMailedTo(app.kv, "friend@example.com");
      const res = await post(app, `/api/leagues/${id}/members`, { teamId: friend.teamId, code });
      assert.equal(res.status, 201);
      assert.equal(res.body.league.memberCount, 2);
      memberToken = res.body.memberToken;
      assert.match(memberToken, /^[\w-]{22}$/);
      const reused = await post(app, `/api/leagues/${id}/members`, { teamId: friend.teamId, code });
      assert.equal(reused.status, 409, "already in");
    });

    await t.step("leaving needs that secret", async () => {
      const wrong = await post(app, `/api/leagues/${id}/leave`, {
        teamId: friend.teamId,
        memberToken: "x".repeat(22),
      });
      assert.equal(wrong.status, 400);
      const res = await post(app, `/api/leagues/${id}/leave`, {
        teamId: friend.teamId,
        memberToken,
      });
      assert.equal(res.status, 200);
      const board = await readJsonBody(await app.request(`/api/leagues/${id}`));
      assert.equal(board.league.memberCount, 1);
    });

    await t.step("a code is spent once: it cannot join again after leaving", async () => {
      const code = await codeMailedTo(app.kv, "friend@example.com");
      const res = await post(app, `/api/leagues/${id}/members`, { teamId: friend.teamId, code });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, CODE_EXPIRED);
    });

    await t.step(`${JOIN_CODE_TRIES} wrong tries use a code up`, async () => {
      await post(app, `/api/leagues/${id}/codes`, { teamId: friend.teamId });
      const code = await codeMailedTo(app.kv, "friend@example.com");
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < JOIN_CODE_TRIES; i++) {
        const res = await post(app, `/api/leagues/${id}/members`, {
          teamId: friend.teamId,
          code: wrong,
        });
        assert.equal(res.status, 400);
      }
      const right = await post(app, `/api/leagues/${id}/members`, { teamId: friend.teamId, code });
      assert.equal(right.status, 400);
      assert.equal(right.body.message, CODE_EXPIRED);
    });

    await t.step("an entry of another competition, or an unknown team ID, cannot ask", async () => {
      const res = await post(app, `/api/leagues/${id}/codes`, { teamId: elsewhere.teamId });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /another competition/);
      const unknown = await post(app, `/api/leagues/${id}/codes`, { teamId: "FFT-NOPE1234" });
      assert.equal(unknown.status, 404);
      const hostile = await post(app, `/api/leagues/${id}/codes`, { teamId: "<script>" });
      assert.equal(hostile.status, 400);
    });
  });
});

Deno.test("[leagues] limits: members, leagues per entry, invites per hour", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Limits Cup" });

    await t.step(`a league holds at most ${MAX_LEAGUE_MEMBERS} entries`, async () => {
      const creator = await makeEntry(app.kv, c);
      const id = await createLeague(app, creator, "Big League");
      for (let i = 1; i < MAX_LEAGUE_MEMBERS; i++) {
        const e = await makeEntry(app.kv, c);
        const res = await post(app, `/api/leagues/${id}/members`, owner(e));
        assert.equal(res.status, 201);
      }
      const late = await makeEntry(app.kv, c);
      const res = await post(app, `/api/leagues/${id}/members`, owner(late));
      assert.equal(res.status, 400);
      assert.equal(res.body.message, LEAGUE_FULL);
      const board = await readJsonBody(await app.request(`/api/leagues/${id}`));
      assert.equal(board.league.memberCount, MAX_LEAGUE_MEMBERS);
      assert.equal(board.rows.length, MAX_LEAGUE_MEMBERS);
    });

    await t.step(`an entry is in at most ${MAX_LEAGUES_PER_ENTRY} leagues`, async () => {
      const joiner = await makeEntry(app.kv, c);
      for (let i = 0; i <= MAX_LEAGUES_PER_ENTRY; i++) {
        const id = await createLeague(app, await makeEntry(app.kv, c), `Circle ${i}`);
        const res = await post(app, `/api/leagues/${id}/members`, owner(joiner));
        if (i < MAX_LEAGUES_PER_ENTRY) assert.equal(res.status, 201);
        else {
          assert.equal(res.status, 400);
          assert.equal(res.body.message, TOO_MANY_LEAGUES);
        }
      }
    });

    await t.step(`a person creates at most ${LEAGUES_PER_HOUR} leagues an hour`, async () => {
      const busy = await makeEntry(app.kv, c, { email: "busy@example.com" });
      for (let i = 0; i < LEAGUES_PER_HOUR; i++) await createLeague(app, busy, `Busy ${i}`);
      const res = await post(app, "/api/leagues", { ...owner(busy), name: "One Too Many" });
      assert.equal(res.status, 429);
      assert.match(
        res.body.message,
        /Too many new leagues: at most 5 an hour\. Please try again in \d+ minutes?\./,
      );
      assert.ok(Number(res.headers.get("retry-after")) > 0, "Retry-After says when");
      // The same person's entry in another contest (the same address, any case) counts too.
      const elsewhere = await makeCompetition(app.kv, { name: "Busy Elsewhere" });
      const second = await makeEntry(app.kv, elsewhere, { email: "BUSY@example.com" });
      const again = await post(app, "/api/leagues", { ...owner(second), name: "Still Busy" });
      assert.equal(again.status, 429);
    });

    await t.step("a refused name does not count toward the hourly limit", async () => {
      const careful = await makeEntry(app.kv, c, { email: "careful@example.com" });
      for (let i = 0; i < LEAGUES_PER_HOUR; i++) {
        const res = await post(app, "/api/leagues", { ...owner(careful), name: "Big League" });
        assert.equal(res.status, 400);
      }
      await createLeague(app, careful, "Careful Crew");
    });

    await t.step(`an address gets at most ${JOIN_CODES_PER_HOUR} join codes an hour`, async () => {
      const id = await createLeague(app, await makeEntry(app.kv, c), "Code Limits");
      const target = await makeEntry(app.kv, c, { email: "target@example.com" });
      for (let i = 0; i < JOIN_CODES_PER_HOUR; i++) {
        const res = await post(app, `/api/leagues/${id}/codes`, { teamId: target.teamId });
        assert.equal(res.status, 202);
      }
      const res = await post(app, `/api/leagues/${id}/codes`, { teamId: target.teamId });
      assert.equal(res.status, 429);
      assert.match(res.body.message, /Too many league codes/);
      const mails = (await listOutbox(app.kv)).filter((m) => m.to === "target@example.com");
      assert.equal(mails.length, JOIN_CODES_PER_HOUR);
    });
  });
});

Deno.test("[leagues] names follow the display-name rules and are unique per competition", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Names Cup" });
    const other = await makeCompetition(app.kv, { name: "Other Names Cup" });
    const a = await makeEntry(app.kv, c);
    const cases: [unknown, RegExp][] = [
      ["x", /League name must be at least 2 characters/],
      ["   ", /League name must be at least 2 characters/],
      ["y".repeat(31), /League name cannot exceed 30 characters/],
      ["Zero\u200bWidth", /League name cannot contain invisible/],
      ["Bidi\u202eEvil", /League name cannot contain invisible/],
      [42, /League name/],
    ];
    for (const [name, message] of cases) {
      await t.step(`${JSON.stringify(name)} is refused`, async () => {
        const res = await post(app, "/api/leagues", { ...owner(a), name });
        assert.equal(res.status, 400);
        assert.match(res.body.message, message);
        assert.deepEqual(res.body.issues?.[0]?.path, ["name"]);
      });
    }
    await t.step("a look-alike of a taken name is taken; another contest may use it", async () => {
      await createLeague(app, a, "Commit Probe");
      for (const name of ["COMMIT  PROBE", "Соmmit Probe"]) {
        const res = await post(app, "/api/leagues", { ...owner(a), name });
        assert.equal(res.status, 400);
        assert.equal(res.body.message, LEAGUE_NAME_TAKEN);
      }
      await createLeague(app, await makeEntry(app.kv, other), "Commit Probe");
    });
  });
});

Deno.test("[leagues] the admin lists leagues with their size and removes one", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, { name: "Admin Cup" });
    const a = await makeEntry(app.kv, c);
    const b = await makeEntry(app.kv, c);
    const id = await createLeague(app, a, "Doomed League");
    await post(app, `/api/leagues/${id}/members`, owner(b));

    await t.step("visitors cannot list or remove", async () => {
      const list = await app.request("/api/admin/leagues");
      assert.equal(list.status, 401);
      await list.body?.cancel();
      const del = await app.request(`/api/admin/leagues/${id}`, { method: "DELETE" });
      assert.equal(del.status, 401);
      await del.body?.cancel();
    });

    await t.step("the list shows each league with its size", async () => {
      const res = await app.request("/api/admin/leagues", { headers: admin });
      assert.equal(res.status, 200);
      const list = await readJsonBody(res);
      assert.equal(list.length, 1);
      assert.equal(list[0].name, "Doomed League");
      assert.equal(list[0].memberCount, 2);
    });

    await t.step("the admin screen lists it with its size and a remove button", async () => {
      const res = await app.request("/admin/leagues", {
        headers: { cookie: await loginCookie(app) },
      });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /Doomed League/);
      assert.match(html, /<td data-members[^>]*>2<\/td>/);
      assert.match(html, /Remove the league Doomed League/);
    });

    await t.step("removing it removes its members and frees its name", async () => {
      const res = await app.request(`/api/admin/leagues/${id}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(res.status, 200);
      assert.match((await readJsonBody(res)).message, /Doomed League/);
      const gone = await app.request(`/api/leagues/${id}`);
      assert.equal(gone.status, 404);
      await gone.body?.cancel();
      for (const e of [a, b]) {
        assert.equal((await app.kv.get(keys.leagueMember(id, e.id))).value, null);
        assert.equal((await app.kv.get(keys.leagueOfEntry(e.id, id))).value, null);
        assert.equal((await app.kv.get(keys.leagueCountOfEntry(e.id))).value, 0);
      }
      const list = await readJsonBody(await app.request("/api/admin/leagues", { headers: admin }));
      assert.deepEqual(list, []);
      await createLeague(app, a, "Doomed League");
      const again = await app.request(`/api/admin/leagues/${id}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(again.status, 404);
      await again.body?.cancel();
    });
  });
});

Deno.test("[leagues] the league page: its board, a share preview, a 404 for an unknown league", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Preview Cup" });
    const a = await makeEntry(app.kv, c, { teamName: "Page Rovers" });
    const id = await createLeague(app, a, "Preview Pals");

    await t.step("the page renders the members and the og tags, never cached", async () => {
      const res = await app.request(`/leagues/${id}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const html = await res.text();
      assert.match(html, /<h1[^>]*>Preview Pals<\/h1>/);
      assert.match(html, /Page Rovers/);
      assert.match(html, /<meta property="og:title" content="Preview Pals · Preview Cup"/);
      assert.match(
        html,
        new RegExp(`<meta property="og:url" content="http://localhost/leagues/${id}"`),
      );
      assert.match(
        html,
        /<meta property="og:image" content="http:\/\/localhost\/og\/competition\/\d+\.png"/,
      );
      assert.match(html, /A friends' league of 1 entry in Preview Cup/);
      assert.match(html, /1 of 50 members/);
    });

    await t.step("an unknown or removed league is a 404 page", async () => {
      for (const path of ["/leagues/AAAAAAAAAAAAAAAAAAAAAA", "/leagues/%3Cscript%3E"]) {
        const res = await app.request(path);
        assert.equal(res.status, 404);
        assert.match(await res.text(), /League Not Found/);
      }
    });

    await t.step("the create page answers for any team parameter", async () => {
      for (
        const path of ["/leagues/new", `/leagues/new?team=${a.teamId}`, "/leagues/new?team=%3Cx%3E"]
      ) {
        const res = await app.request(path);
        assert.equal(res.status, 200);
        assert.match(await res.text(), /Create a league/);
      }
    });
  });
});
