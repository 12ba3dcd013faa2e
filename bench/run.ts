/**
 * `deno task bench`: runs every bench/*_bench.ts one after another (each in its own process, so
 * their memory figures do not mix) and prints their figures; exits 1 if any of them failed.
 * `deno task bench leaderboard` runs only the benches whose file name contains "leaderboard".
 */
const BENCH_DIR = new URL("./", import.meta.url);

async function benchFiles(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(BENCH_DIR)) {
    if (!entry.isFile || !entry.name.endsWith("_bench.ts")) continue;
    if (Deno.args.length === 0 || Deno.args.some((part) => entry.name.includes(part))) {
      names.push(entry.name);
    }
  }
  return names.sort();
}

const failed: string[] = [];
for (const name of await benchFiles()) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(name, BENCH_DIR).pathname],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`=== ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${seconds} s ===`);
  if (code !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.log(`\nFailed: ${failed.join(", ")}`);
  Deno.exit(1);
}
