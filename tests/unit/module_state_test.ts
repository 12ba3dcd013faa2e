/**
 * No module of lib/ keeps mutable state at its top level: what an isolate keeps between requests
 * (caches, queues, limits) is made by `createServices`, once per Services (lib/services.ts), so
 * each test app and each isolate has its own. The scan finds top-level `let`/`var`, top-level
 * `new Map/WeakMap/Set/WeakSet` and top-level objects or arrays written to later in their module;
 * the few kept are listed below, each with its reason.
 */
import assert from "node:assert/strict";

/** Folders whose module state is not the app's, with the reason. */
const ALLOWED_FOLDERS: Record<string, string> = {
  "lib/fresh/":
    "the framework's own module state (bundler queue, render state, compression worker, static " +
    "file index, build id), as in real Fresh; it moves with the framework",
  "lib/client/": "browser code: one page is one isolate, and its state is the page's",
};

/** `file name` → why this top-level state may stay. */
const ALLOWED: Record<string, string> = {
  "lib/auth/admins.ts dummyHash":
    "one immutable value made once (a hash of a random password, spent on unknown usernames so " +
    "they take as long); it holds nothing of any store",
  "lib/og/png.ts ready":
    "the wasm renderer and fonts, loaded once per process (resvg's initWasm may run only once)",
  "lib/store/ids.ts lastTimeId":
    "the process's clock for time-ordered ids: ascending across every store and Services of the " +
    "process (the outbox and feed are read in its order); it holds no data",
  "lib/http/request_log.ts routes":
    "per request, not per isolate: the route of a request, kept while the request lives",
  "lib/http/errors.ts STATUS": "a constant lookup table (error class → status), never written",
  "lib/http/validate.ts bodies":
    "per request, not per isolate: the one read of a request's body, shared by the activity log " +
    "and the handler while the request lives (weakly held)",
  "lib/http/admin_audit.ts NOT_LOGGED": "a constant set of paths, never written",
  "lib/config.ts LOOPBACK_HOSTS": "a constant set of host names, never written",
  "lib/db/audit.ts SECRET_FIELDS": "a constant set of field names, never written",
  "lib/db/notifications.ts SCORING_EVENTS":
    "a constant set of event types (those pushed as 'my picks scored'), never written",
  "lib/domain/paid_entry.ts GMAIL_DOMAINS": "a constant set of domains, never written",
  "lib/domain/format.ts moneyFormats":
    "a memo of immutable Intl formatters by currency: the same for every store and isolate",
  "lib/domain/format.ts whenFormats":
    "a memo of immutable Intl formatters by time zone: the same for every store and isolate",
};

const DECLARATION =
  /^(?:export\s+)?(let|var|const)\s+([A-Za-z_$][\w$]*)\s*(?::(?:=>|[^=])*)?=(?![=>])\s*(.*)$/;
const COLLECTION = /^new\s+(?:Map|WeakMap|Set|WeakSet)\b/;
const LITERAL = /^[[{]/;

async function sourceFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...await sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** Whether `name` (a top-level object or array) is written to somewhere in `text`. */
function writtenTo(name: string, text: string): boolean {
  const n = name.replace(/\$/g, "\\$");
  return new RegExp(
    `(?<![\\w$.])${n}(?:\\.[\\w$]+|\\[[^\\]]*\\])+\\s*(?:[-+*/]?=(?!=)|\\+\\+|--)` +
      `|(?<![\\w$.])${n}\\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|set|delete|add|clear)\\(` +
      `|Object\\.assign\\(\\s*${n}\\b`,
  ).test(text);
}

/** The top-level mutable state of one module: `file name` for each. */
function moduleState(file: string, text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    const m = DECLARATION.exec(line);
    if (!m) continue;
    const [, kind, name, init] = m;
    const mutable = kind !== "const" || COLLECTION.test(init) ||
      (LITERAL.test(init) && writtenTo(name, text));
    if (mutable) found.push(`${file} ${name}`);
  }
  return found;
}

Deno.test("[services] no module of lib/ keeps mutable state at its top level (Services holds it)", async () => {
  const found: string[] = [];
  for (const file of (await sourceFiles("lib")).sort()) {
    if (Object.keys(ALLOWED_FOLDERS).some((folder) => file.startsWith(folder))) continue;
    found.push(...moduleState(file, await Deno.readTextFile(file)));
  }
  const unexpected = found.filter((state) => !(state in ALLOWED));
  assert.deepEqual(
    unexpected,
    [],
    "module-level state in lib/: make it a field of Services (lib/services.ts), or, if it holds " +
      "nothing of any isolate's work, add it to ALLOWED with the reason",
  );
  const stale = Object.keys(ALLOWED).filter((state) => !found.includes(state));
  assert.deepEqual(stale, [], "ALLOWED names state that no longer exists: drop it");
});

Deno.test("[services] the scan finds each kind of module state", () => {
  const text = [
    "let count = 0;",
    "const cache = new Map<string, number>();",
    "export const seen = new WeakMap<object, number>();",
    "const counts = { rendered: 0 };",
    "const queue: string[] = [];",
    "const waiting: (() => void)[] = [];",
    "const LIMITS = { a: 1 };",
    'const NAMES = ["a"];',
    'function f() { counts.rendered++; queue.push("x"); waiting.shift(); new Map(); }',
  ].join("\n");
  assert.deepEqual(moduleState("lib/x.ts", text), [
    "lib/x.ts count",
    "lib/x.ts cache",
    "lib/x.ts seen",
    "lib/x.ts counts",
    "lib/x.ts queue",
    "lib/x.ts waiting",
  ]);
});
