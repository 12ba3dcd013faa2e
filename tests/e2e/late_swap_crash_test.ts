/**
 * Late swap survives its process: a worker swaps a first-match pick back and forth while that
 * match's kick-off comes, and is killed (kill -9) at random points. After every kill the entry
 * is whole (one goalkeeper of the two, the payer's team index on its picks and on nothing
 * else), and no swap was ever saved at or after the kick-off; once kicked off, a new process's
 * swap is refused and changes nothing.
 */
import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { updateMatch } from "@/lib/db/matches.ts";
import { personOf, picksSignature } from "@/lib/domain/paid_entry.ts";
import { keys } from "@/lib/store/keys.ts";
import { makeEntry } from "@/tests/helpers/fixtures.ts";
import { makeRoundContest, playerOf } from "@/tests/helpers/rounds.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const WORKER = new URL("../helpers/swap_worker.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const HOUR = 3_600_000;

/** Runs the worker; with `killAfterMs`, kill -9 that long after it opened the store. */
async function runSwaps(args: string[], killAfterMs?: number): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, WORKER, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let seen = "";
  const reading = (async () => {
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) seen += chunk;
  })();
  if (killAfterMs !== undefined) {
    await waitFor("the worker opened the store", () => seen.includes("ready"), { everyMs: 2 });
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    try {
      child.kill("SIGKILL");
    } catch { /* it finished first */ }
  }
  const status = await child.status;
  await reading;
  if (killAfterMs === undefined) assert.equal(status.code, 0, "the swap worker failed");
  return seen.includes("done");
}

Deno.test("[late swap] kill -9 while swapping across the kick-off: no swap after it, nothing half-written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "late-swap-crash-" });
  const path = `${dir}/store.kv`;
  const kv = await Deno.openKv(path);
  try {
    const c = await makeRoundContest(kv, [
      new Date(Date.now() + HOUR),
      new Date(Date.now() + 3 * HOUR),
    ], { lateSwap: true });
    const [a, b, x, y] = c.teams;
    const gks = [playerOf(c, a, "GK").id, playerOf(c, b, "GK").id];
    const others = [
      playerOf(c, b, "DEF"),
      playerOf(c, x, "DEF"),
      playerOf(c, x, "MID"),
      playerOf(c, y, "FWD"),
    ]
      .map((p) => p.id);
    const entry = await makeEntry(kv, c as never, { playerIds: [gks[0], ...others] });
    await updateCompetition(kv, c.id, { deadline: new Date(Date.now() - 60_000).toISOString() });
    // The first match kicks off a few seconds from now, while the workers swap.
    const kickoff = Date.now() + 6_000;
    await updateMatch(kv, c.matches[0].id, { kickoffTime: new Date(kickoff).toISOString() });
    const args = [path, entry.editToken!, String(gks[0]), String(gks[1]), others.join(",")];
    const person = personOf(entry.email);

    const assertWhole = async () => {
      const now = (await getEntryByTeamId(kv, entry.teamId))!;
      assert.equal(now.playerIds.filter((id) => gks.includes(id)).length, 1, "one goalkeeper");
      assert.deepEqual(now.playerIds.slice(1), others);
      if (now.editedAt) assert.ok(Date.parse(now.editedAt) < kickoff, "saved before kick-off");
      const index: number[] = [];
      for await (const e of kv.list<number>({ prefix: ["team_by_person", c.id, person] })) {
        index.push(e.value);
        assert.deepEqual(e.key, keys.personTeam(c.id, person, picksSignature(now.playerIds)));
      }
      assert.deepEqual(index, [entry.id], "the team index follows the picks, once");
      return now;
    };

    let kills = 0;
    while (Date.now() < kickoff + 1_000) {
      const finished = await runSwaps(args, 100 + Math.floor(Math.random() * 900));
      if (!finished) kills++;
      await assertWhole();
    }
    assert.ok(kills > 0, "some runs were killed mid-way");
    const before = await assertWhole();
    assert.ok((before.revision ?? 0) > 0, "swaps were saved before the kick-off");
    assert.equal(await runSwaps(args), true, "after the kick-off every swap is refused");
    assert.deepEqual(await getEntryByTeamId(kv, entry.teamId), before, "and changes nothing");
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
