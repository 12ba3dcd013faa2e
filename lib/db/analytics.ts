/**
 * Product analytics counters (SPEC §7): one Deno.KvU64 per UTC day and event name under
 * `["analytics", day, name]`, bumped with `atomic().sum` so concurrent writers never lose a count.
 */

const PREFIX = "analytics";
const DAY_MS = 86_400_000;

export interface AnalyticsEvent {
  name: string;
  path?: string;
  competitionId?: number;
}

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
  const res = await kv.atomic()
    .sum(analyticsKey(analyticsDay(now), event.name), 1n)
    .commit();
  if (!res.ok) throw new Error("Could not record the analytics event");
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
  const count = Math.max(1, Math.floor(days));
  const result: DailyAnalytics[] = [];
  for (let i = count - 1; i >= 0; i--) {
    result.push({ day: analyticsDay(new Date(now.getTime() - i * DAY_MS)), counts: {} });
  }
  const byDay = new Map(result.map((d) => [d.day, d.counts]));
  const end = analyticsDay(new Date(now.getTime() + DAY_MS));
  const iter = kv.list<Deno.KvU64>({ start: [PREFIX, result[0].day], end: [PREFIX, end] });
  for await (const { key, value } of iter) {
    const counts = byDay.get(String(key[1]));
    if (counts) counts[String(key[2])] = Number(value.value);
  }
  return result;
}
