/** Shared steps of the visitor browser tests: toasts, team picking, layout and axe checks. */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";

/** Headers of an admin API call made by a browser test to set its scene. */
export const ADMIN_HEADERS = {
  "content-type": "application/json",
  "x-admin-username": "admin",
  "x-admin-password": "admin-test-password",
};

const AXE_PATH = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname;

/** A player row as the team builder renders it. */
export interface RowInfo {
  id: number;
  position: "GK" | "DEF" | "MID" | "FWD";
  teamId: number;
  salary: number;
}

/** The analytics events a page handed to the browser, and the requests that carried them. */
export interface AnalyticsLog {
  /** Event names, in the order the page queued them with `navigator.sendBeacon`. */
  names: string[];
  /** POST requests the browser made to /api/analytics. */
  requests: number;
}

/**
 * Records the analytics events the page sends to our API. Beacons show no body to Playwright, so
 * an init script notes each beacon's event name as the page hands it to `navigator.sendBeacon`,
 * and the requests themselves are counted as the browser makes them. The name is read at once,
 * from the text the page built its Blob from: a Blob read later (`blob.text()`) may never resolve
 * when the page navigates away right after sending, as checkout does after "purchase". Nothing is
 * routed: a routed beacon still in flight when the page navigates away could stay pending in
 * Playwright's bookkeeping, and the next "networkidle" wait would never come.
 */
export async function recordAnalytics(page: Page): Promise<AnalyticsLog> {
  const log: AnalyticsLog = { names: [], requests: 0 };
  await page.exposeFunction("__analyticsQueued", (name: string) => log.names.push(name));
  await page.addInitScript(() => {
    const record = (globalThis as unknown as { __analyticsQueued(name: string): void })
      .__analyticsQueued;
    const NativeBlob = Blob;
    const texts = new WeakMap<Blob, string>();
    globalThis.Blob = class extends NativeBlob {
      constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
        super(parts, options);
        if (parts?.length === 1 && typeof parts[0] === "string") texts.set(this, parts[0]);
      }
    };
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      const queued = send(url, data);
      const text = typeof data === "string"
        ? data
        : data instanceof NativeBlob
        ? texts.get(data)
        : undefined;
      if (queued && text !== undefined) record(JSON.parse(text).name);
      return queued;
    };
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "POST" && url.pathname === "/api/analytics") log.requests++;
  });
  return log;
}

/** Waits for the toast with this title and returns its whole text. */
export async function expectToast(page: Page, title: string): Promise<string> {
  const toast = page.locator("[data-toast]").filter({ hasText: title });
  await toast.waitFor({ timeout: 10_000 });
  return await toast.innerText();
}

/** Closes the toast on screen, if any. */
export async function closeToast(page: Page): Promise<void> {
  const close = page.getByRole("button", { name: "Close notification" });
  if (await close.count()) await close.click();
  await page.locator("[data-toast]").waitFor({ state: "detached" });
}

/** Every player row of the builder, in list order. */
export function readRows(page: Page): Promise<RowInfo[]> {
  return page.locator("li[data-player-id]").evaluateAll((items) =>
    items.map((li) => {
      const el = li as HTMLElement;
      return {
        id: Number(el.dataset.playerId),
        position: el.dataset.position as RowInfo["position"],
        teamId: Number(el.dataset.teamId),
        salary: Number(el.dataset.salary),
      };
    })
  );
}

/** Clicks the row of each player (the rows must be visible: the position filter is ALL). */
export async function clickPlayers(page: Page, ids: number[]): Promise<void> {
  for (const id of ids) {
    await page.locator(`li[data-player-id="${id}"] button[aria-pressed]`).click();
  }
}

/** Five players that pass every rule: 1 GK, 2 DEF, 1 MID, 1 FWD, cheapest first, ≤ 3 per club. */
export function validTeam(rows: RowInfo[]): number[] {
  const cheapest = [...rows].sort((a, b) => a.salary - b.salary);
  const perTeam = new Map<number, number>();
  const picks: number[] = [];
  for (const [position, n] of [["GK", 1], ["DEF", 2], ["MID", 1], ["FWD", 1]] as const) {
    const chosen = cheapest.filter((r) =>
      r.position === position && (perTeam.get(r.teamId) ?? 0) < 3
    )
      .slice(0, n);
    assert.equal(chosen.length, n, `the competition has ${n} ${position} to pick`);
    for (const r of chosen) {
      perTeam.set(r.teamId, (perTeam.get(r.teamId) ?? 0) + 1);
      picks.push(r.id);
    }
  }
  return picks;
}

/** POSTs JSON and returns the answer; fails the test on any status outside 2xx. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  assert.ok(res.ok, `${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Buys one entry of a valid team through the public API with the test card; returns its team id. */
export async function buyEntryOverApi(
  base: string,
  competitionId: number,
  entrant: { email: string; teamName: string },
): Promise<string> {
  return (await buyEntryAnswer(base, competitionId, entrant)).teamId as string;
}

/** As `buyEntryOverApi`, answering what POST /api/entries answered (teamId, editToken, …). */
export async function buyEntryAnswer(
  base: string,
  competitionId: number,
  entrant: { email: string; teamName: string },
): Promise<Record<string, unknown>> {
  const rows: RowInfo[] = await (await fetch(`${base}/api/competitions/${competitionId}/players`))
    .json();
  const { paymentIntentId } = await postJson(`${base}/api/create-payment-intent`, {
    competitionId,
  });
  await postJson(`${base}/api/test-payments/confirm`, {
    paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
  });
  return await postJson(`${base}/api/entries`, {
    competitionId,
    ...entrant,
    playerIds: validTeam(rows),
    stripePaymentId: paymentIntentId,
  });
}

/** Like `buyEntryOverApi`, also returning the entry's private edit token. */
export async function buyEntryWithToken(
  base: string,
  competitionId: number,
  entrant: { email: string; teamName: string },
): Promise<{ teamId: string; editToken: string }> {
  const entry = await buyEntryAnswer(base, competitionId, entrant);
  return { teamId: entry.teamId as string, editToken: entry.editToken as string };
}

/** Fails when the page scrolls sideways. */
export async function assertNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.equal(overflow, 0, "no horizontal scrolling");
}

/** Runs axe-core on the page; fails on any serious or critical violation. */
export async function assertNoSeriousAxeViolations(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol: the page's CSP forbids injected script tags.
  await page.evaluate(await Deno.readTextFile(AXE_PATH));
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(" ")),
    }));
  });
  const serious = violations.filter((v: { impact: string }) =>
    v.impact === "serious" || v.impact === "critical"
  );
  assert.deepEqual(serious, [], `axe violations on ${page.url()}`);
}
