/**
 * Product analytics counters: one Deno.KvU64 per UTC day and event name under
 * `["analytics", day, name]`, bumped with `atomic().sum` so concurrent writers never lose a count.
 * The purchase funnel is counted per visitor session instead (`["analytics_funnel", day, step]`):
 * a session counts once in every step up to the furthest it reached that day, so each step is a
 * subset of the one before; its last step, purchases, is the paid entries of the day.
 */
import { keys } from "@/lib/store/keys.ts";
import { getManyEntries, retryAtomic } from "@/lib/store/util.ts";

const PREFIX = "analytics";
const DAY_MS = 86_400_000;

export interface AnalyticsEvent {
  name: string;
  path?: string;
  competitionId?: number;
  /** The visitor's session (one browser tab session), for the funnel. */
  session?: string;
}

/** The funnel's steps in order: visit, team completed, payment page, purchase. */
export const FUNNEL_STEPS = [
  "page_view",
  "complete_team_selection",
  "view_payment_page",
  "purchase",
] as const;

const PURCHASE_STEP = FUNNEL_STEPS.indexOf("purchase");
const FUNNEL_PREFIX = "analytics_funnel";
const SESSION_PREFIX = "analytics_sessions";

export interface DailyAnalytics {
  /** UTC day, "YYYY-MM-DD". */
  day: string;
  /** Count per event name on that day. */
  counts: Record<string, number>;
}

/** The UTC day of a moment, "YYYY-MM-DD". */
function analyticsDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC days of the last `days` days up to and including `now`'s, oldest first. */
function windowDays(days: number, now: Date): string[] {
  const count = Math.max(1, Math.floor(days));
  return Array.from(
    { length: count },
    (_, i) => analyticsDay(new Date(now.getTime() - (count - 1 - i) * DAY_MS)),
  );
}

/** Key of the counter of one event name on one day. */
export function analyticsKey(day: string, name: string): Deno.KvKey {
  return [PREFIX, day, name];
}

/** Counts one event on the UTC day of `now`. */
export async function recordAnalyticsEvent(
  kv: Deno.Kv,
  event: AnalyticsEvent,
  now: Date = new Date(),
): Promise<void> {
  const day = analyticsDay(now);
  const res = await kv.atomic()
    .sum(analyticsKey(day, event.name), 1n)
    .commit();
  if (!res.ok) throw new Error("Could not record the analytics event");
  const step = (FUNNEL_STEPS as readonly string[]).indexOf(event.name);
  // A browser's word is not a purchase: that step counts paid entries (keys.purchasesOn).
  if (event.session && step >= 0 && step < PURCHASE_STEP) {
    await advanceFunnel(kv, day, event.session, step);
  }
}

/**
 * Moves a session's furthest funnel step of the day to `step` (when further), counting it once
 * in every step it newly covers; a step reached again or out of order counts nothing more.
 */
async function advanceFunnel(kv: Deno.Kv, day: string, session: string, step: number) {
  const key = [SESSION_PREFIX, day, session];
  await retryAtomic("record the funnel step", async () => {
    const current = await kv.get<number>(key);
    const reached = current.value ?? -1;
    if (step <= reached) return true;
    const op = kv.atomic().check(current).set(key, step, { expireIn: 2 * DAY_MS });
    for (let s = reached + 1; s <= step; s++) op.sum([FUNNEL_PREFIX, day, s], 1n);
    return (await op.commit()).ok ? true : undefined;
  });
}

/**
 * Sessions per funnel step for each of the last `days` UTC days up to `now`'s, oldest first:
 * `steps[i]` counts the sessions that reached FUNNEL_STEPS[i] or further, so it never grows.
 */
export async function listDailyFunnel(
  kv: Deno.Kv,
  { days, now = new Date() }: { days: number; now?: Date },
): Promise<{ day: string; steps: number[] }[]> {
  const result = windowDays(days, now).map((day) => ({
    day,
    steps: FUNNEL_STEPS.map(() => 0),
  }));
  const byDay = new Map(result.map((d) => [d.day, d.steps]));
  const end = analyticsDay(new Date(now.getTime() + DAY_MS));
  const iter = kv.list<Deno.KvU64>({
    start: [FUNNEL_PREFIX, result[0].day],
    end: [FUNNEL_PREFIX, end],
  });
  for await (const { key, value } of iter) {
    const steps = byDay.get(String(key[1]));
    if (steps) steps[Number(key[2])] = Number(value.value);
  }
  const purchases = await getManyEntries<Deno.KvU64>(
    kv,
    result.map((d) => keys.purchasesOn(d.day)),
  );
  result.forEach((d, i) => d.steps[PURCHASE_STEP] = Number(purchases[i].value?.value ?? 0n));
  return result;
}

/**
 * The counts of the last `days` UTC days up to and including `now`'s, oldest first; a day
 * without events has empty counts.
 * @example await listDailyAnalytics(kv, { days: 7, now: new Date() })
 */
export async function listDailyAnalytics(
  kv: Deno.Kv,
  { days, now = new Date() }: { days: number; now?: Date },
): Promise<DailyAnalytics[]> {
  const result: DailyAnalytics[] = windowDays(days, now).map((day) => ({ day, counts: {} }));
  const byDay = new Map(result.map((d) => [d.day, d.counts]));
  const end = analyticsDay(new Date(now.getTime() + DAY_MS));
  const iter = kv.list<Deno.KvU64>({ start: [PREFIX, result[0].day], end: [PREFIX, end] });
  for await (const { key, value } of iter) {
    const counts = byDay.get(String(key[1]));
    if (counts) counts[String(key[2])] = Number(value.value);
  }
  return result;
}
