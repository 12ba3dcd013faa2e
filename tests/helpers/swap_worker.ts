/**
 * A process that swaps one pick of an entry back and forth through its edit link, for the
 * kill -9 test of late swap: each try swaps the goalkeeper it holds for the other (both of the
 * first match) until three swaps were refused as locked. Prints "ready" once the store is open
 * and "done" at the end.
 * Usage: deno run -A tests/helpers/swap_worker.ts <store path> <edit token> <gk a> <gk b> <others>
 */
import { editEntry, getEntryByEditToken } from "@/lib/db/entry_edits.ts";
import { ConflictError } from "@/lib/domain/errors.ts";

const [path, token, gkA, gkB, othersText] = Deno.args;
const gks = [Number(gkA), Number(gkB)];
const others = othersText.split(",").map(Number);
const kv = await Deno.openKv(path);
console.log("ready");
let refused = 0;
while (refused < 3) {
  const entry = (await getEntryByEditToken(kv, token))!;
  const next = entry.playerIds.includes(gks[0]) ? gks[1] : gks[0];
  try {
    await editEntry(kv, token, {
      teamName: entry.teamName,
      playerIds: [next, ...others],
      revision: entry.revision ?? 0,
    });
  } catch (err) {
    if (!(err instanceof ConflictError) || !/ locked at /.test(err.message)) throw err;
    refused++;
  }
}
kv.close();
console.log("done");
