/**
 * A person's rules for their own play, pure: spend limits per rolling day, week and month (lower
 * at once, higher only after a cooling-off day), a break, and self-exclusion (their own or a
 * regulator's). The payment intent and the entry's commit both ask `playProblem`.
 */
import { formatPrice, formatWhen } from "./format.ts";

export type LimitPeriod = "daily" | "weekly" | "monthly";
export const LIMIT_PERIODS: readonly LimitPeriod[] = ["daily", "weekly", "monthly"];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The rolling window each limit counts spend over. */
export const PERIOD_MS: Readonly<Record<LimitPeriod, number>> = {
  daily: DAY_MS,
  weekly: 7 * DAY_MS,
  monthly: 30 * DAY_MS,
};
/** A higher (or removed) limit applies only this long after it was asked for. */
export const RAISE_DELAY_MS = DAY_MS;
export const BREAK_MIN_HOURS = 24;
export const BREAK_MAX_HOURS = 6 * 7 * 24;
/** Self-exclusion lengths a person may choose; none can be undone early. */
export const EXCLUSION_PERIODS = { "6m": 6, "1y": 12, "5y": 60 } as const;
export type ExclusionPeriod = keyof typeof EXCLUSION_PERIODS;

/** One limit: minor units (null: none), and a raise waiting for its day to pass. */
export interface LimitSetting {
  cents: number | null;
  pending?: { cents: number | null; from: string };
}

/** What a person set for their own play (stored per person). */
export interface PlaySettings {
  limits: Partial<Record<LimitPeriod, LimitSetting>>;
  /** Their break ends at this time. */
  breakUntil?: string;
}

/** A person's exclusion from play, by themselves or from a regulator's list. */
export interface Exclusion {
  until: string;
  source: "self" | "regulator";
  since: string;
}

/** One paid entry as the spend ledger keeps it: when (ms) and how much (minor units). */
export type Spend = [at: number, cents: number];

/** What the play decision reads. */
export interface PlayFacts {
  settings: PlaySettings | null;
  exclusion: Exclusion | null;
  /** The person's spends of the last 30 days (older ones may be present and are ignored). */
  spends: readonly Spend[];
}

/** Why a person may not pay now, and until when. */
export interface PlayProblem {
  message: string;
  until: string | null;
}

export const NO_SETTINGS: PlaySettings = { limits: {} };

/** The limit in force at `now` (a pending raise whose day has passed applies). */
export function limitInForce(setting: LimitSetting | undefined, now: Date): number | null {
  if (!setting) return null;
  if (setting.pending && Date.parse(setting.pending.from) <= now.getTime()) {
    return setting.pending.cents;
  }
  return setting.cents;
}

/**
 * The settings once the person asks for `cents` (null: no limit) as their `period` limit: a
 * lower limit (or a first one) applies at once and drops any pending raise; a higher one, or
 * removing it, waits RAISE_DELAY_MS.
 * @example setLimit(NO_SETTINGS, "daily", 2000, now).limits.daily // { cents: 2000 }
 */
export function setLimit(
  settings: PlaySettings,
  period: LimitPeriod,
  cents: number | null,
  now: Date,
): PlaySettings {
  const current = limitInForce(settings.limits[period], now);
  const lower = cents !== null && (current === null || cents <= current);
  const next: LimitSetting = lower ? { cents } : {
    cents: current,
    pending: { cents, from: new Date(now.getTime() + RAISE_DELAY_MS).toISOString() },
  };
  if (!lower && cents === current) return settings;
  return { ...settings, limits: { ...settings.limits, [period]: next } };
}

/** The end of a break of `hours` from `now` (never earlier than a break already running). */
export function breakEnd(settings: PlaySettings, hours: number, now: Date): string {
  const end = now.getTime() + hours * HOUR_MS;
  const running = settings.breakUntil ? Date.parse(settings.breakUntil) : 0;
  return new Date(Math.max(end, running)).toISOString();
}

/** The end of a self-exclusion of `period` from `now`, in calendar months. */
export function exclusionEnd(period: ExclusionPeriod, now: Date): string {
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + EXCLUSION_PERIODS[period]);
  return end.toISOString();
}

/** A moment in a message: "14:05 UTC" today, "Sat 5 Dec, 14:05 UTC" later. */
export function untilText(at: Date, now: Date): string {
  const sameDay = at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  if (sameDay) return `${at.toISOString().slice(11, 16)} UTC`;
  const far = at.getTime() - now.getTime() > 300 * DAY_MS;
  return formatWhen(at, "UTC", { year: far });
}

/**
 * When spend in the window falls far enough for `cents` more to fit under `limit`: the moment the
 * oldest spends leave the window. Null when `cents` alone is above the limit.
 */
function roomAt(spends: Spend[], windowMs: number, limit: number, cents: number): number | null {
  if (cents > limit) return null;
  let total = spends.reduce((sum, [, c]) => sum + c, 0);
  for (const [at, c] of spends) {
    total -= c;
    if (total + cents <= limit) return at + windowMs;
  }
  return null;
}

/**
 * Why the person may not spend `cents` more (in `currency`) at `now`, or null: excluded, on a
 * break, or a limit that the spend of its rolling window plus this fee would pass.
 * @example playProblem({ settings, exclusion: null, spends }, 500, "usd", now)?.message // "Your daily limit of $20.00 is reached until 14:05 UTC."
 */
export function playProblem(
  facts: PlayFacts,
  cents: number,
  currency: string,
  now: Date,
): PlayProblem | null {
  const t = now.getTime();
  const { exclusion, settings } = facts;
  if (exclusion && Date.parse(exclusion.until) > t) {
    const when = untilText(new Date(exclusion.until), now);
    return {
      message: exclusion.source === "self"
        ? `You have excluded yourself from play until ${when}.`
        : `You are on a self-exclusion list until ${when}, so you cannot enter paid contests.`,
      until: exclusion.until,
    };
  }
  if (settings?.breakUntil && Date.parse(settings.breakUntil) > t) {
    const when = untilText(new Date(settings.breakUntil), now);
    return {
      message: `You are taking a break from play until ${when}.`,
      until: settings.breakUntil,
    };
  }
  for (const period of LIMIT_PERIODS) {
    const limit = limitInForce(settings?.limits[period], now);
    if (limit === null) continue;
    const windowMs = PERIOD_MS[period];
    const inWindow = facts.spends.filter(([at]) => at > t - windowMs).sort((a, b) => a[0] - b[0]);
    const spent = inWindow.reduce((sum, [, c]) => sum + c, 0);
    if (spent + cents <= limit) continue;
    const money = formatPrice(limit / 100, currency);
    const room = roomAt(inWindow, windowMs, limit, cents);
    if (room === null) {
      return {
        message: `This entry fee of ${
          formatPrice(cents / 100, currency)
        } is above your ${period} limit of ${money}.`,
        until: null,
      };
    }
    const until = new Date(room);
    return {
      message: `Your ${period} limit of ${money} is reached until ${untilText(until, now)}.`,
      until: until.toISOString(),
    };
  }
  return null;
}

/** The spends still needed by the longest window, with `added` (for the ledger's write). */
export function keptSpends(spends: readonly Spend[], added: Spend[], now: Date): Spend[] {
  const from = now.getTime() - PERIOD_MS.monthly;
  return [...spends, ...added].filter(([at]) => at > from);
}

/** The spend of each window at `now`, for My account. */
export function spentPerPeriod(spends: readonly Spend[], now: Date): Record<LimitPeriod, number> {
  const t = now.getTime();
  const sum = (p: LimitPeriod) =>
    spends.filter(([at]) => at > t - PERIOD_MS[p]).reduce((s, [, c]) => s + c, 0);
  return { daily: sum("daily"), weekly: sum("weekly"), monthly: sum("monthly") };
}
