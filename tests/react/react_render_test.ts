/**
 * Islands and components are React components: every island and every shared component renders
 * with real React 19 (`react`, `react-dom/server` from npm) without a single React warning.
 *
 * Typical props come from the app itself: the pages of a seeded app are rendered (on preact, as
 * in production) while capture.ts records the props each island and component receives; a
 * second process, whose import map points `react` at the npm package instead of preact/compat,
 * renders them again with React (render_all.tsx). Components that no page renders on the server
 * get hand-written props in extra_cases.tsx.
 */
import assert from "node:assert/strict";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { loginCookie } from "@/tests/helpers/fixtures.ts";
import { componentIds, startCapture } from "./capture.ts";
import type { RenderReport } from "./render_all.tsx";
import type { SeedData } from "./extra_cases.tsx";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";

const ROOT = new URL("../../", import.meta.url);
const REACT_VERSION = "19.3.1";

/** The app's import map, `react` and `react-dom` pointing at real React (see fresh_runtime.ts). */
async function reactImportMap(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const imports: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.imports as Record<string, string>)) {
    imports[key] = value.startsWith(".") ? new URL(value, ROOT).href : value;
  }
  for (const key of Object.keys(imports)) {
    if (key === "react" || key.startsWith("react/") || key.startsWith("react-dom")) {
      delete imports[key];
    }
  }
  imports["$fresh/runtime.ts"] = new URL("fresh_runtime.ts", import.meta.url).href;
  imports["react"] = `npm:react@${REACT_VERSION}`;
  imports["react/"] = `npm:/react@${REACT_VERSION}/`;
  imports["react-dom"] = `npm:react-dom@${REACT_VERSION}`;
  imports["react-dom/"] = `npm:/react-dom@${REACT_VERSION}/`;
  const file = await Deno.makeTempFile({ prefix: "react-import-map-", suffix: ".json" });
  await Deno.writeTextFile(file, JSON.stringify({ imports }));
  return file;
}

/** Renders the seeded app's pages and returns the props its components received. */
async function capturePageProps(): Promise<string> {
  const capture = startCapture(await componentIds(ROOT));
  const app = await makeTestApp({ seed: true });
  try {
    const cookie = await loginCookie(app);
    const competitions = await (await app.request("/api/competitions")).json() as { id: number }[];
    const paths = [
      "/",
      "/email-test",
      "/no-such-page",
      "/admin/login",
      "/admin/dashboard",
      "/admin/matches",
      "/admin/matches/new",
      "/admin/clubs",
      "/admin/matches/1",
      "/admin/competitions/new",
      "/admin/player-performances",
      "/admin/2fa",
      "/admin/import",
      "/admin/feed",
    ];
    for (const { id } of competitions) {
      paths.push(
        `/team-selection/${id}`,
        `/leaderboard/${id}`,
        `/payment/${id}`,
        `/confirmation/${id}`,
        `/admin/competitions/edit/${id}`,
        `/admin/competitions/${id}/events`,
        `/admin/competitions/${id}/players`,
        `/admin/competitions/${id}/prizes`,
        `/admin/player-performances?competitionId=${id}`,
      );
    }
    for (const path of paths) {
      const res = await app.request(path, { headers: { cookie } });
      await res.body?.cancel();
    }
    (await app.request("/admin/login")).body?.cancel();
    const captured = capture.stop();
    const data = await seedData(app, cookie);
    const file = await Deno.makeTempFile({ prefix: "react-props-", suffix: ".json" });
    await Deno.writeTextFile(file, JSON.stringify({ captured, data }));
    return file;
  } finally {
    capture.stop();
    await app.close();
  }
}

/** The seeded app's API answers that extra_cases.tsx builds its props from. */
async function seedData(app: TestApp, cookie: string): Promise<SeedData> {
  const get = async <T>(path: string): Promise<T> => {
    const res = await app.request(path, { headers: { cookie } });
    assert.equal(res.status, 200, path);
    return await res.json() as T;
  };
  const competitions = await get<CompetitionRow[]>("/api/admin/competitions");
  const live = competitions.find((c) => c.status === "LIVE")!;
  const upcoming = competitions.find((c) => c.status === "UPCOMING")!;
  const base = `/api/admin/competitions/${live.id}`;
  const intent = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: upcoming.id },
  });
  assert.equal(intent.status, 200);
  return {
    competitions,
    matches: await get("/api/admin/matches"),
    teams: await get("/api/admin/teams"),
    live,
    players: await get(`${base}/players`),
    events: await get(`${base}/events`),
    performances: await get(`${base}/performances`),
    intent: await intent.json(),
  };
}

Deno.test("[react] every island and component renders with React 19 without a warning", async () => {
  const propsFile = await capturePageProps();
  const importMap = await reactImportMap();
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        new URL("deno.json", ROOT).pathname,
        "--import-map",
        importMap,
        new URL("render_all.tsx", import.meta.url).pathname,
        propsFile,
      ],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 0, `render_all failed:\n${err}`);
    const report = JSON.parse(new TextDecoder().decode(stdout)) as RenderReport;
    assert.equal(report.reactVersion, REACT_VERSION, "rendered with real React, not preact/compat");
    assert.deepEqual(report.problems, [], "React warnings or render errors");
    const missing = report.components.filter((id) => !report.rendered[id]);
    assert.deepEqual(missing, [], "components never rendered (add a case to extra_cases.tsx)");
    assert.ok(report.components.length > 50, `${report.components.length} components found`);
  } finally {
    await Deno.remove(propsFile);
    await Deno.remove(importMap);
  }
});
