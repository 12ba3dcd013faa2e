/**
 * Bulk import at season scale: `deno task bench import`. A 5,000-row players file (CSV, 20 clubs
 * imported first) into a KV file: the dry-run preview, the apply that creates every row, the
 * same file again (every row unchanged) and a file that changes every salary (every row an
 * update), each timed through `previewImport` / `applyImport` as the Import page's requests run
 * them; the budget is 10 s per apply. Writes .bench-out/import.json.
 */
import { applyImport, type ImportRequest, previewImport } from "@/lib/db/imports.ts";

const ROWS = Number(Deno.env.get("IMPORT_ROWS") ?? 5000);
const BUDGET_S = 10;
const OUT = new URL("../.bench-out/import.json", import.meta.url);
const POSITIONS = ["GK", "DEF", "DEF", "MID", "MID", "FWD"];

const dir = await Deno.makeTempDir();
const kv = await Deno.openKv(`${dir}/import.kv`);
const clubs = ["externalId,name,shortName,league,logoUrl"];
for (let c = 1; c <= 20; c++) clubs.push(`club-${c},Club ${c},C${c},PREMIER_LEAGUE,`);
await applyImport(kv, {
  kind: "clubs",
  format: "csv",
  fileName: "clubs.csv",
  content: clubs.join("\n"),
}, "bench");

const players = (bump: number) => {
  const lines = ["externalId,name,position,club,salary,imageUrl"];
  for (let i = 1; i <= ROWS; i++) {
    lines.push(
      `player-${i},Player ${i},${POSITIONS[i % POSITIONS.length]},club-${(i % 20) + 1},${
        4000 + (i % 50) * 100 + bump
      },`,
    );
  }
  return lines.join("\n") + "\n";
};
const request = (content: string): ImportRequest => ({
  kind: "players",
  format: "csv",
  fileName: "players.csv",
  content,
});
const seconds = async (task: () => Promise<unknown>) => {
  const t0 = performance.now();
  const result = await task();
  return { s: +((performance.now() - t0) / 1000).toFixed(2), result };
};

const preview = await seconds(() => previewImport(kv, request(players(0))));
const create = await seconds(() => applyImport(kv, request(players(0)), "bench"));
const again = await seconds(() => applyImport(kv, request(players(0)), "bench"));
const update = await seconds(() => applyImport(kv, request(players(100)), "bench"));
kv.close();
await Deno.remove(dir, { recursive: true });

const result = {
  rows: ROWS,
  previewS: preview.s,
  applyCreateS: create.s,
  applyUnchangedS: again.s,
  applyUpdateS: update.s,
  budgetS: BUDGET_S,
  loadAverage: Deno.loadavg().map((n) => +n.toFixed(2)),
};
const ok = Math.max(create.s, again.s, update.s) <= BUDGET_S;
console.log(
  `import: ${ROWS} player rows: preview ${preview.s} s, apply ${create.s} s (all created), ` +
    `${again.s} s (all unchanged), ${update.s} s (all updated); budget ${BUDGET_S} s ` +
    `(${ok ? "within" : "OVER"})`,
);
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
if (!ok) Deno.exit(1);
