/**
 * Display formatting shared by pages and islands. Pure and locale-independent:
 * the output is the same on the server and in every browser.
 */

import type { Position } from "./types.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Numbers or numeric strings become numbers; anything else (empty, invalid, null) becomes 0. */
export function toNumber(v: unknown): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : 0;
  if (typeof v !== "string" || v.trim() === "") return 0;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : 0;
}

/** Whole cents of an amount, immune to binary float noise (1.005 → 101). */
export function toCents(n: number): number {
  return Math.round(Number((n * 100).toPrecision(12)));
}

/** An amount rounded to cents. */
export function roundMoney(n: number): number {
  return toCents(n) / 100;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Money with 2 decimals and thousands separators: 1234.5 → "1,234.50"; null or invalid → "0.00". */
export function formatMoney(n: number | string | null | undefined): string {
  const cents = toCents(toNumber(n));
  const abs = Math.abs(cents);
  const whole = groupThousands(String(Math.floor(abs / 100)));
  const fraction = String(abs % 100).padStart(2, "0");
  return `${cents < 0 ? "-" : ""}${whole}.${fraction}`;
}

/** A whole amount with thousands separators, rounded: 50000 → "50,000" (salary cap, budget). */
export function formatWhole(n: number | string | null | undefined): string {
  const rounded = Math.round(toNumber(n));
  const sign = rounded < 0 ? "-" : "";
  return sign + groupThousands(String(Math.abs(rounded)));
}

/** The public side's currency of a competition: USD, or GBP for anything else. */
function publicCurrency(currency: string | null | undefined): "USD" | "GBP" {
  return currencySymbol(currency) === "$" ? "USD" : "GBP";
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** An amount in the contest's currency by Intl.NumberFormat: "$1,234.50", "£40,000". */
function formatCurrency(amount: number, currency: string | null | undefined, decimals: 0 | 2) {
  const code = publicCurrency(currency);
  const id = `${code}:${decimals}`;
  let format = moneyFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(code === "USD" ? "en-US" : "en-GB", {
      style: "currency",
      currency: code,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    moneyFormats.set(id, format);
  }
  // Whole amounts round like formatWhole (half up), cents like toCents; never "-$0".
  const value = decimals === 0 ? Math.round(amount) : toCents(amount) / 100;
  return format.format(value === 0 ? 0 : value);
}

/**
 * A salary, cap or budget in whole units of the contest's currency, sign first: 9000 → "$9,000",
 * (9000, "GBP") → "£9,000", -500 → "-$500".
 */
export function formatSalary(
  n: number | string | null | undefined,
  currency: string | null | undefined = "USD",
): string {
  return formatCurrency(toNumber(n), currency, 0);
}

/**
 * Currency symbol of the public side: "$" for USD, "£" for anything else.
 * A missing currency is the default USD.
 */
export function currencySymbol(currency: string | null | undefined): "$" | "£" {
  if (currency === null || currency === undefined || currency === "") return "$";
  return currency.toUpperCase() === "USD" ? "$" : "£";
}

/** Symbol plus 2-decimal amount: formatPrice(10, "USD") → "$10.00", formatPrice(5, "GBP") → "£5.00". */
export function formatPrice(
  amount: number | string | null | undefined,
  currency: string | null | undefined,
): string {
  return formatCurrency(toNumber(amount), currency, 2);
}

/**
 * What an entry cost, in its payment's currency: the amount recorded with the payment (cents),
 * else the competition's entry fee (entries made before amounts were recorded). "$10.00".
 */
export function amountPaidText(
  entry: { amountPaid?: number; currency?: string },
  competition: { entryFee: number | string; currency?: string | null },
): string {
  return entry.amountPaid === undefined
    ? formatPrice(competition.entryFee, competition.currency)
    : formatPrice(entry.amountPaid / 100, entry.currency ?? competition.currency);
}

/** English ordinal of a place: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th. */
export function ordinal(n: number): string {
  const mod100 = Math.abs(n) % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  const suffix = ["th", "st", "nd", "rd"][Math.abs(n) % 10] ?? "th";
  return `${n}${suffix}`;
}

/**
 * Closing text of a contest card: 'Closes in {n}d' (whole days, floored) when more
 * than 24 h remain, else 'Closes in {n}h' (whole hours, floored, so the last hour shows 0h);
 * 'Closed' once the deadline has passed; 'Coming soon' with no (or an unreadable) deadline.
 */
export function closesIn(deadline: string | null | undefined, now: Date): string {
  if (!deadline) return "Coming soon";
  const at = new Date(deadline).getTime();
  if (Number.isNaN(at)) return "Coming soon";
  const ms = at - now.getTime();
  if (ms <= 0) return "Closed";
  if (ms > DAY_MS) return `Closes in ${Math.floor(ms / DAY_MS)}d`;
  if (ms >= HOUR_MS) return `Closes in ${Math.floor(ms / HOUR_MS)}h`;
  return `Closes in ${Math.max(1, Math.floor(ms / 60_000))}m`;
}

const whenFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment a person can act on: weekday, date, 24-hour clock and the zone's name,
 * "Fri 27 Nov, 17:06 GMT" ("17:06 CET" in Paris). Without `timeZone` in the browser's own zone;
 * the server passes "UTC" (it cannot know the visitor's) and the page names it. With `year`,
 * "Fri 27 Nov 2026, 17:06 UTC" (e-mails, read later). "" for an unreadable date.
 */
export function formatWhen(
  iso: string | Date,
  timeZone?: string,
  { year = false }: { year?: boolean } = {},
): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const id = `${timeZone ?? ""}|${year}`;
  let format = whenFormats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: year ? "numeric" : undefined,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
      timeZoneName: "short",
    });
    whenFormats.set(id, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "";
  const date = `${part("weekday")} ${part("day")} ${part("month")}${
    year ? ` ${part("year")}` : ""
  }`;
  return `${date}, ${part("hour")}:${part("minute")} ${part("timeZoneName")}`;
}

/**
 * Text for a search that ignores case and accents: "Peña" and "Müller" match "pena" and
 * "muller" (letters decomposed, combining marks dropped, then lower case).
 */
export function searchText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Countdown as HH:MM:SS, floored to the second, "00:00:00" once passed; with more than 24 hours
 * left the whole days come first ("6d 23:56:52"), as the contest card's 'Closes in 6d' counts them.
 */
export function formatCountdown(msRemaining: number): string {
  if (!(msRemaining > 0)) return "00:00:00";
  const days = msRemaining > DAY_MS ? Math.floor(msRemaining / DAY_MS) : 0;
  const total = Math.floor((msRemaining - days * DAY_MS) / 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const clock = `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${
    pad(total % 60)
  }`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/**
 * The name shown for an entry: its team name, or 'Entry ' plus characters 4 to 9 of the team ID
 * (0-based and inclusive, i.e. `teamId.slice(4, 10)`: the six characters after the `FFT-` prefix)
 * when the name is blank.
 */
export function displayName(teamName: string | null | undefined, teamId: string): string {
  const name = teamName?.trim();
  return name ? name : `Entry ${teamId.slice(4, 10)}`;
}

/**
 * The form of a display name two entries must not share to be told apart: compatibility forms
 * folded (NFKC: full-width letters, ligatures), case folded, runs of spaces as one.
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The name a leaderboard shows for an entry whose display name others share: the name and the
 * team ID without its `FFT-` prefix, "Commit Probe · 3HBUKG8M" (team IDs are unique).
 */
export function distinctName(name: string, teamId: string): string {
  return `${name} · ${teamId.slice(4)}`;
}

/** Prize text of a competition: the custom description for NON_CASH when present, else the money. */
export function prizeText(c: {
  prizeType?: string | null;
  customPrizeDescription?: string | null;
  prizePool: number | string | null | undefined;
  currency?: string | null;
}): string {
  const custom = c.customPrizeDescription?.trim();
  if (c.prizeType === "NON_CASH" && custom) return custom;
  return formatPrice(c.prizePool, c.currency);
}

/** The last word of a name ("Mohamed Salah" → "Salah"); "" for a blank name. */
export function lastName(name: string | null | undefined): string {
  const words = (name ?? "").trim().split(/\s+/);
  return words[words.length - 1] ?? "";
}

/** A league as words: "PREMIER_LEAGUE" → "Premier League"; "—" when missing. */
export function leagueLabel(league: string | null | undefined): string {
  if (!league) return "—";
  return league.toLowerCase().split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** The name of a position: GK → "Goalkeeper". */
export const POSITION_NAMES: Readonly<Record<Position, string>> = {
  GK: "Goalkeeper",
  DEF: "Defender",
  MID: "Midfielder",
  FWD: "Forward",
};

/** Points with at most one decimal and no trailing ".0": 12 → "12", 4.5 → "4.5", -1 → "-1". */
export function formatPoints(n: number): string {
  const rounded = Math.round(n * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/** Points with their unit, as formatted by `formatPoints`: "1 pt", "4.5 pts", "0 pts". */
export function pointsText(points: number | string): string {
  const text = typeof points === "number" ? formatPoints(points) : points;
  return `${text} ${text === "1" ? "pt" : "pts"}`;
}

/**
 * "Jane's", "False Nine Lives'": the possessive of a display name, with a bare apostrophe after a
 * final s ("Lives's" reads as a typo).
 */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** An e-mail with the local part hidden: `jane@example.com` → `j***@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email[0]}***${email.slice(at)}`;
}
