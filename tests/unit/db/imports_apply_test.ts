/**
 * A file is applied whole or not at all: a club deleted while a 2,000-row players file applies
 * makes the import fail with NO row of it left applied (the chunks already applied are undone),
 * and an apply cut short (a crash) is finished by resumeImport without applying a chunk twice.
 */
import assert from "node:assert/strict";
import { applyImport, type ImportJob, resumeImport } from "@/lib/db/imports.ts";
import { listPlayers } from "@/lib/db/players.ts";
import { deleteTeam, listTeams } from "@/lib/db/teams.ts";
import { keys } from "@/lib/store/keys.ts";
import { clubsCsv, importBody } from "@/tests/helpers/import_files.ts";

/** 2,000 player rows: the first 1,990 in club-1, the last 10 in club-2. */
function playersFile(): string {
  const lines = ["externalId,name,position,club,salary,imageUrl"];
  for (let i = 1; i <= 2000; i++) {
    lines.push(`p-${i},Player ${i},MID,club-${i <= 1990 ? 1 : 2},5000,`);
  }
  return lines.join("\n") + "\n";
}

async function withKv(run: (kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await applyImport(kv, importBody("clubs", clubsCsv(2)) as never, "admin");
    await run(kv);
  } finally {
    kv.close();
  }
}

Deno.test("[imports] a club deleted during the apply: the import fails and no row of it stays applied", async () => {
  await withKv(async (kv) => {
    const club2 = (await listTeams(kv)).find((t) => t.externalId === "club-2")!;
    const seen: ImportJob[] = [];
    let deleted = false;
    const job = await applyImport(
      kv,
      importBody("players", playersFile()) as never,
      "admin",
      async (progress) => {
        seen.push(progress);
        // After the first chunks are in, the club of the last rows goes (nobody plays there yet).
        if (!deleted && progress.chunksDone === 3) {
          deleted = true;
          await deleteTeam(kv, club2.id);
        }
      },
    );
    assert.ok(deleted);
    assert.equal(job.status, "FAILED");
    assert.match(job.error ?? "", /^Row 1991: club: Club club-2 does not exist/);
    assert.equal(job.chunksDone, 0);
    assert.ok(seen.some((j) => j.status === "UNDOING"), "the applied chunks were undone");
    assert.ok(seen.some((j) => j.chunksDone > 40), "most of the file had been applied");
    assert.deepEqual(await listPlayers(kv), [], "no row of the file is left");
    const byTeam = await Array.fromAsync(kv.list({ prefix: ["players_by_team"] }));
    assert.deepEqual(byTeam, []);
    const ids = await Array.fromAsync(kv.list({ prefix: ["external_ids", "players"] }));
    assert.deepEqual(ids, [], "no external id of the file is left");
    const left = await Array.fromAsync(kv.list({ prefix: keys.importUndos(job.id) }));
    assert.equal(left.length, 0, "nothing staged is left behind");
  });
});

Deno.test("[imports] an apply cut short is finished by resume, each chunk applied once", async () => {
  await withKv(async (kv) => {
    const crash = new Error("the process died");
    let jobId = 0;
    await assert.rejects(
      applyImport(kv, importBody("players", playersFile()) as never, "admin", (progress) => {
        jobId = progress.id;
        if (progress.chunksDone === 5) throw crash;
      }),
      (err) => err === crash,
    );
    const stopped = (await kv.get<ImportJob>(keys.importJob(jobId))).value!;
    assert.equal(stopped.status, "APPLYING");
    assert.equal(stopped.chunksDone, 5);
    assert.equal((await listPlayers(kv)).length, 5 * stopped.chunkRows!);

    const done = await resumeImport(kv, jobId);
    assert.equal(done.status, "APPLIED");
    const players = await listPlayers(kv);
    assert.equal(players.length, 2000);
    assert.equal(new Set(players.map((p) => p.externalId)).size, 2000, "no row twice");
    const left = await Array.fromAsync(kv.list({ prefix: keys.importUndos(jobId) }));
    assert.equal(left.length, 0);
  });
});

Deno.test("[imports] an undo cut short is finished by resume: still no row of the file left", async () => {
  await withKv(async (kv) => {
    const club2 = (await listTeams(kv)).find((t) => t.externalId === "club-2")!;
    const crash = new Error("the process died");
    let jobId = 0;
    let deleted = false;
    await assert.rejects(
      applyImport(kv, importBody("players", playersFile()) as never, "admin", async (progress) => {
        jobId = progress.id;
        if (!deleted && progress.chunksDone === 2) {
          deleted = true;
          await deleteTeam(kv, club2.id);
        }
        if (progress.status === "UNDOING" && progress.chunksDone === 20) throw crash;
      }),
      (err) => err === crash,
    );
    const stopped = (await kv.get<ImportJob>(keys.importJob(jobId))).value!;
    assert.equal(stopped.status, "UNDOING");
    assert.ok((await listPlayers(kv)).length > 0, "part of the file is still applied");

    const done = await resumeImport(kv, jobId);
    assert.equal(done.status, "FAILED");
    assert.deepEqual(await listPlayers(kv), []);
  });
});
