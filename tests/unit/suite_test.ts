/**
 * `deno task test:fast` runs the unit and API tests that need no browser and start no process
 * (a child `deno`, a server process, a Worker), so it stays quick on two cores. The files that
 * do are left out by name in the task's `--ignore` list; this test keeps that list exact: every
 * unit or API test file that starts a process or a browser is on it, and every file on it does.
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

/** The `--ignore` list and the folders of the test:fast task in deno.json. */
async function fastTask(): Promise<{ ignored: string[]; folders: string[] }> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const task: string = config.tasks["test:fast"];
  const ignore = task.match(/--ignore=(\S+)/);
  assert.ok(ignore, "test:fast names the files it leaves out with --ignore");
  const folders = task.split(/\s+/).filter((word) => /^tests\/[\w/]+\/$/.test(word));
  return { ignored: ignore[1].split(",").sort(), folders };
}

Deno.test("[suite] test:fast runs the unit and API folders", async () => {
  const { folders } = await fastTask();
  assert.deepEqual(folders.sort(), ["tests/api/", "tests/unit/"]);
});

Deno.test("[suite] test:fast leaves out exactly the files that start a process or a browser", async () => {
  const { ignored } = await fastTask();
  const heavy: string[] = [];
  for (const folder of ["tests/unit", "tests/api"]) {
    for (const file of await filesUnder(folder)) {
      // This file names the patterns in its own samples without starting anything.
      if (!file.endsWith("_test.ts") || file === "tests/unit/suite_test.ts") continue;
      if (startsProcess(await Deno.readTextFile(join(ROOT, file)))) heavy.push(file);
    }
  }
  assert.ok(heavy.includes("tests/api/live_processes_test.ts"), "the scan finds a server start");
  assert.deepEqual(heavy.sort(), ignored);
});

Deno.test("[suite] the process scan sees each way of starting one", () => {
  assert.ok(startsProcess("const out = await new Deno.Command(Deno.execPath(), {})"));
  assert.ok(startsProcess("const child = cmd.spawn();"));
  assert.ok(startsProcess("const server = await startServer({ env });"));
  assert.ok(startsProcess("const browser = await launchBrowser();"));
  assert.ok(!startsProcess('import { freePort } from "@/tests/helpers/server.ts";'));
});
