import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { listTeams } from "@/lib/db/teams.ts";
import { listPlayers } from "@/lib/db/players.ts";
import { competitionSalaries } from "@/lib/db/competition_players.ts";

const CLUBS = `externalId,name,shortName,league,logoUrl
opta-c1,Riverside Rovers,RIV,PREMIER_LEAGUE,
opta-c2,Kingsbridge Athletic,KBA,PREMIER_LEAGUE,https://example.com/kba.png
`;
const PLAYERS = `externalId,name,position,club,salary,imageUrl
opta-p1,Connor Birtles,GK,opta-c1,5500,
opta-p2,Jordan Radcliffe,FWD,opta-c2,9000,
`;
const MATCHES = `externalId,homeClub,awayClub,league,kickoffTime,stadium,homeScore,awayScore
opta-m1,opta-c1,opta-c2,PREMIER_LEAGUE,2030-05-01T15:00:00.000Z,Riverside Park,,
`;

/** The body of an import request for a CSV file of `kind`. */
function csv(kind: string, content: string) {
  return { kind, format: "csv", content };
}

function request(app: TestApp, admin: Record<string, string>, path: string, body: unknown) {
  return app.request(`/api/admin/imports/${path}`, { method: "POST", headers: admin, json: body });
}

async function apply(app: TestApp, admin: Record<string, string>, body: unknown) {
  const res = await request(app, admin, "apply", body);
  assert.equal(res.status, 200, await res.clone().text());
  const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
  const last = lines[lines.length - 1];
  assert.equal(last.type, "done");
  return { job: last.job, lines };
}

async function exported(app: TestApp, admin: Record<string, string>, query: string) {
  const res = await app.request(`/api/admin/imports/export?${query}`, { headers: admin });
  assert.equal(res.status, 200);
  return await res.text();
}

Deno.test("[imports] preview lists every row; a file with errors changes nothing", async (t) => {
  await withAdminApp(async (app, admin) => {
    const bad = CLUBS + "opta-c3,Nowhere Town,NWT,NOT_A_LEAGUE,\n,No Id,NID,PREMIER_LEAGUE,\n";
    await t.step("preview: create, create, error (league), error (externalId)", async () => {
      const res = await request(app, admin, "preview", csv("clubs", bad));
      assert.equal(res.status, 200);
      const preview = await readJsonBody(res);
      assert.deepEqual(preview.rows.map((r: { action: string }) => r.action), [
        "create",
        "create",
        "error",
        "error",
      ]);
      assert.equal(preview.rows[2].errors[0].field, "league");
      assert.equal(preview.rows[3].errors[0].field, "externalId");
      assert.deepEqual(preview.counts, { create: 2, update: 0, unchanged: 0, error: 2 });
    });
    await t.step("apply is refused whole (400 naming the rows), nothing written", async () => {
      const res = await request(app, admin, "apply", csv("clubs", bad));
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.match(body.message, /2 rows with errors: nothing was imported/);
      assert.match(body.issues[0].message, /^Row 3: league/);
      assert.equal((await listTeams(app.kv)).length, 0);
    });
    await t.step("unknown columns and unreadable files are a 400 on content", async () => {
      const res = await request(app, admin, "preview", {
        kind: "clubs",
        format: "json",
        content: '[{"externalId":"x","colour":"red"}]',
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).issues[0].path[0], "content");
    });
  });
});

Deno.test("[imports] re-running a file changes nothing; changes show as updates", async (t) => {
  await withAdminApp(async (app, admin) => {
    await t.step("clubs, players and matches apply", async () => {
      assert.equal((await apply(app, admin, csv("clubs", CLUBS))).job.status, "APPLIED");
      const { job } = await apply(app, admin, csv("players", PLAYERS));
      assert.deepEqual(job.counts, { create: 2, update: 0, unchanged: 0, error: 0 });
      await apply(app, admin, csv("matches", MATCHES));
      assert.equal((await listPlayers(app.kv)).length, 2);
    });
    await t.step("the same files again: every row unchanged, no new records", async () => {
      for (
        const [kind, content] of [["clubs", CLUBS], ["players", PLAYERS], ["matches", MATCHES]]
      ) {
        const { job } = await apply(app, admin, csv(kind, content));
        assert.equal(job.counts.unchanged, job.rows, kind);
      }
      assert.equal((await listTeams(app.kv)).length, 2);
      assert.equal((await listPlayers(app.kv)).length, 2);
    });
    await t.step("a new salary and club: an update naming the columns", async () => {
      const moved = PLAYERS.replace("opta-c2,9000", "opta-c1,9500");
      const preview = await readJsonBody(
        await request(app, admin, "preview", csv("players", moved)),
      );
      assert.deepEqual(preview.rows[1].changes, ["club", "salary"]);
      assert.equal(preview.rows[0].action, "unchanged");
      await apply(app, admin, csv("players", moved));
      const radcliffe = (await listPlayers(app.kv)).find((p) => p.externalId === "opta-p2")!;
      assert.equal(radcliffe.salary, 9500);
      const history = await readJsonBody(
        await app.request("/api/admin/imports", { headers: admin }),
      );
      assert.equal(history[0].kind, "players");
      assert.equal(history[0].admin, "admin");
      assert.equal(history[0].status, "APPLIED");
    });
  });
});

Deno.test("[imports] an export re-imports unchanged, byte for byte", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await apply(app, admin, csv("clubs", CLUBS));
    await apply(app, admin, csv("players", PLAYERS));
    await apply(app, admin, csv("matches", MATCHES));
    const kinds = ["clubs", "players", "matches", "competition-players"] as const;
    for (const kind of kinds) {
      for (const format of ["csv", "json"] as const) {
        const query = `kind=${kind}&format=${format}&competitionId=${c.id}`;
        const first = await exported(app, admin, query);
        const body = { kind, format, competitionId: c.id, content: first };
        const preview = await readJsonBody(await request(app, admin, "preview", body));
        assert.equal(preview.counts.unchanged, preview.rows.length, `${kind} ${format}`);
        assert.ok(preview.rows.length > 0);
        await apply(app, admin, body);
        assert.equal(await exported(app, admin, query), first, `${kind} ${format}`);
      }
    }
  });
});

Deno.test("[imports] the CSV export defuses formula cells, and imports back unchanged", async () => {
  await withAdminApp(async (app, admin) => {
    const hyperlink = '=HYPERLINK("https://evil.example","Click")';
    await apply(
      app,
      admin,
      csv(
        "clubs",
        "externalId,name,shortName,league,logoUrl\n" +
          `f-1,"${hyperlink.replaceAll('"', '""')}",FA,PREMIER_LEAGUE,\n` +
          "f-2,@SUM(A1:A9),FB,PREMIER_LEAGUE,\n",
      ),
    );
    const file = await exported(app, admin, "kind=clubs&format=csv");
    const cells: string[][] = parse(file);
    const formulas = cells.flat().filter((c) => /^[=+\-@\t\r]/.test(c));
    assert.deepEqual(formulas, [], "no cell a spreadsheet would run");
    const names = cells.slice(1).map((row) => row[1]);
    assert.deepEqual(names.sort(), [`'${hyperlink}`, "'@SUM(A1:A9)"]);

    const preview = await readJsonBody(
      await request(app, admin, "preview", csv("clubs", file)),
    );
    assert.deepEqual(preview.counts, { create: 0, update: 0, unchanged: 2, error: 0 });
    const stored = (await listTeams(app.kv)).map((t) => t.name).sort();
    assert.deepEqual(stored, [hyperlink, "@SUM(A1:A9)"]);
  });
});

Deno.test("[imports] text that is not UTF-8 is refused with 400 naming the file and the row; nothing is saved", async () => {
  await withAdminApp(async (app, admin) => {
    await apply(app, admin, csv("clubs", CLUBS));
    const content = PLAYERS + "latin-1,M\u00fcller,GK,opta-c1,5000,\n";
    const body = JSON.stringify({
      kind: "players",
      format: "csv",
      fileName: "latin1.csv",
      content,
    });
    const replaced = body.replace("M\u00fcller", "M\uFFFDller");
    const bodies = {
      "Latin-1 bytes": Uint8Array.from(body, (ch) => ch.charCodeAt(0)),
      "a U+FFFD left by a lossy decoder": new TextEncoder().encode(replaced),
    };
    for (const [label, bytes] of Object.entries(bodies)) {
      for (const path of ["preview", "apply"]) {
        const res = await app.request(`/api/admin/imports/${path}`, {
          method: "POST",
          headers: { ...admin, "content-type": "application/json" },
          body: bytes,
        });
        assert.equal(res.status, 400, `${label}, ${path}`);
        const refusal = await readJsonBody(res);
        assert.equal(
          refusal.message,
          'latin1.csv, row 3 (name: "M\uFFFDller") is not UTF-8 text: ' +
            "save the file as UTF-8 and import it again",
          `${label}, ${path}`,
        );
        assert.deepEqual(refusal.issues[0].path, ["rows", 3, "name"]);
      }
    }
    assert.deepEqual((await listPlayers(app.kv)).map((p) => p.externalId), []);
  });
});

Deno.test("[imports] salaries of players in paid entries never change", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await makeEntry(app.kv, c);
    const exportedList = await exported(
      app,
      admin,
      `kind=competition-players&format=json&competitionId=${c.id}`,
    );
    const rows = JSON.parse(exportedList) as { player: string; salary: number }[];
    const raised = rows.map((r) => ({ ...r, salary: r.salary + 500 }));
    const body = {
      kind: "competition-players",
      format: "json",
      competitionId: c.id,
      content: JSON.stringify(raised),
    };
    const preview = await readJsonBody(await request(app, admin, "preview", body));
    const kept = preview.rows.filter((r: { note: string | null }) => r.note);
    assert.equal(kept.length, 5); // the entry's five picks
    assert.ok(kept.every((r: { action: string }) => r.action === "unchanged"));
    assert.equal(preview.counts.update, rows.length - 5);
    const before = await competitionSalaries(app.kv, c.id, c.players);
    await apply(app, admin, body);
    const after = await competitionSalaries(app.kv, c.id, c.players);
    for (const row of kept) {
      const id = Number(row.ref.slice(1));
      assert.equal(after.get(id), before.get(id));
    }
  });
});
