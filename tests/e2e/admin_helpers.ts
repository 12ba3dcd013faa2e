/** Shared steps of the admin browser tests: log in, wait for toasts, pay for an entry by API. */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { gotoHydrated } from "@/tests/helpers/browser.ts";

export const ADMIN = { username: "admin", password: "admin-test-password" };

/** The toast on screen with this title (waits for it). */
export async function expectToast(
  page: Page,
  title: string,
  description?: string,
): Promise<Locator> {
  const toast = page.locator("[data-toast]").filter({ hasText: title });
  await toast.waitFor({ timeout: 10_000 });
  if (description !== undefined) {
    assert.match(await toast.innerText(), new RegExp(escape(description)));
  }
  return toast;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Logs in through the login form and waits for the dashboard. */
export async function login(page: Page, baseUrl: string): Promise<void> {
  await gotoHydrated(page, `${baseUrl}/admin/login`);
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/admin/dashboard");
}

/** Opens an admin page and waits until its islands have loaded their data. */
export async function openAdmin(page: Page, baseUrl: string, path: string): Promise<void> {
  await gotoHydrated(page, `${baseUrl}${path}`);
}

async function post<T>(baseUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  assert.ok(res.ok, `${path} answered ${res.status}: ${JSON.stringify(data)}`);
  return data as T;
}

/** An entrant's paid entry made through the public API in test payment mode; returns its teamId. */
export async function payForEntry(
  baseUrl: string,
  entry: { competitionId: number; playerIds: number[]; teamName: string; email: string },
): Promise<string> {
  const intent = await post<{ paymentIntentId: string }>(baseUrl, "/api/create-payment-intent", {
    competitionId: entry.competitionId,
  });
  await post(baseUrl, "/api/test-payments/confirm", {
    paymentIntentId: intent.paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
  });
  const created = await post<{ teamId: string }>(baseUrl, "/api/entries", {
    ...entry,
    stripePaymentId: intent.paymentIntentId,
  });
  return created.teamId;
}

/** Public players of a competition (id, name, position, teamId, salary). */
export async function competitionPlayers(
  baseUrl: string,
  competitionId: number,
): Promise<{ id: number; name: string; position: string; teamId: number; salary: number }[]> {
  const res = await fetch(`${baseUrl}/api/competitions/${competitionId}/players`);
  assert.equal(res.status, 200);
  return await res.json();
}

const AXE_PATH = new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname;

/** Serious or critical WCAG 2 A/AA violations axe-core finds on the page, as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
    });
    // deno-lint-ignore no-explicit-any
    return result.violations.filter((v: any) => v.impact === "serious" || v.impact === "critical")
      // deno-lint-ignore no-explicit-any
      .map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(" ")).join(", ")}`);
  });
}
