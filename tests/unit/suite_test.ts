/**
 * `deno task test:fast` runs the unit and API tests that need no browser and start no process
 * (a child `deno`, a server process, a Worker), so it stays quick on two cores. The files that
 * do are left out by name in the task's `--ignore` list, beside the e2e/ and react/ folders; this
 * test keeps that list exact: every unit or API test file that starts a process or a browser is
 * on it, and every file on it does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { filesUnder, ROOT } from "@/tests/helpers/import_graph.ts";

/** What starting a browser, a child process or a Worker looks like in a test file. */
const STARTS_PROCESS = [
  /new Deno\.Command\(/,
  /\.spawn\(/,
  /\bstartServer\(/,
  /\blaunchBrowser\(/,
  /\brunWorker\(/,
  /new Worker\(/,
];

const startsProcess = (source: string) => STARTS_PROCESS.some((pattern) => pattern.test(source));

/**
 * The test:fast task of deno.json: the folders and the files its `--ignore` list leaves out, and
 * the paths it runs. `deno test` honours `--ignore` only under its first path argument, so the
 * task runs one path, `tests/`, and leaves out the browser and React folders in the same list.
 */
async function fastTask(): Promise<{ folders: string[]; files: string[]; paths: string[] }> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const task: string = config.tasks["test:fast"];
  const ignore = task.match(/--ignore=(\S+)/);
  assert.ok(ignore, "test:fast names what it leaves out with --ignore");
  const ignored = ignore[1].split(",");
  const paths = task.split(/\s+/).filter((word) => /^tests\//.test(word));
  return {
    folders: ignored.filter((path) => path.endsWith("/")).sort(),
    files: ignored.filter((path) => !path.endsWith("/")).sort(),
    paths,
  };
}

Deno.test("[suite] test:fast runs the unit and API folders only", async () => {
  const { folders, paths } = await fastTask();
  assert.deepEqual(paths, ["tests/"], "one path: --ignore applies under the first path only");
  const all: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "tests"))) {
    if (entry.isDirectory) all.push(`tests/${entry.name}/`);
  }
  const run = all.filter((folder) => !folders.includes(folder));
  // helpers/ and fixtures/ hold no test files.
  assert.deepEqual(run.sort(), ["tests/api/", "tests/fixtures/", "tests/helpers/", "tests/unit/"]);
});

Deno.test("[suite] test:fast leaves out exactly the files that start a process or a browser", async () => {
  const { files } = await fastTask();
  const heavy: string[] = [];
  for (const folder of ["tests/unit", "tests/api"]) {
    for (const file of await filesUnder(folder)) {
      // This file names the patterns in its own samples without starting anything.
      if (!file.endsWith("_test.ts") || file === "tests/unit/suite_test.ts") continue;
      if (startsProcess(await Deno.readTextFile(join(ROOT, file)))) heavy.push(file);
    }
  }
  assert.ok(heavy.includes("tests/api/live_processes_test.ts"), "the scan finds a server start");
  assert.deepEqual(heavy.sort(), files);
});

Deno.test("[suite] the process scan sees each way of starting one", () => {
  assert.ok(startsProcess("const out = await new Deno.Command(Deno.execPath(), {})"));
  assert.ok(startsProcess("const child = cmd.spawn();"));
  assert.ok(startsProcess("const server = await startServer({ env });"));
  assert.ok(startsProcess("const browser = await launchBrowser();"));
  assert.ok(!startsProcess('import { freePort } from "@/tests/helpers/server.ts";'));
});
