/**
 * Date and time helpers of the admin forms. A deadline or kickoff is entered as a date plus a
 * time of day in the admin's own time zone and stored as an ISO date-time in UTC.
 */
import { addDays, addHours, format, isValid, parseISO, startOfHour } from "date-fns";

export interface LocalDateTime {
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
}

/** The local date and time of day of an ISO instant (empty parts for an invalid one). */
export function toLocalParts(iso: string | null | undefined): LocalDateTime {
  if (!iso) return { date: "", time: "" };
  const at = parseISO(iso);
  if (!isValid(at)) return { date: "", time: "" };
  return { date: format(at, "yyyy-MM-dd"), time: format(at, "HH:mm") };
}

/** The UTC ISO instant of a local date and time of day, or null when either is missing/invalid. */
export function fromLocalParts(parts: LocalDateTime): string | null {
  if (!parts.date) return null;
  const at = parseISO(`${parts.date}T${parts.time || "00:00"}`);
  return isValid(at) ? at.toISOString() : null;
}

/** Local date and time `days` days from `now`, rounded up to the next full hour. */
export function daysAheadParts(days: number, now: Date = new Date()): LocalDateTime {
  const at = addDays(now, days);
  const hour = startOfHour(at);
  return toLocalParts((hour.getTime() === at.getTime() ? hour : addHours(hour, 1)).toISOString());
}

/**
 * "15 Jun 2031, 18:30" in the admin's time zone, or '—' for a missing or invalid date: the
 * 24-hour clock the public pages use too (event times, kick-offs, link previews).
 */
export function formatAdminDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const at = parseISO(iso);
  return isValid(at) ? format(at, "d MMM yyyy, HH:mm") : "—";
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/**
 * "15 Jun 2031, 18:30 UTC": the admin format of `formatAdminDate` where the page is rendered on
 * the server, which cannot know the admin's zone, so it names UTC (`seconds` for the activity
 * log, whose order within a minute matters); '—' for a missing or invalid date.
 */
export function formatAdminDateUtc(
  iso: string | null | undefined,
  { seconds = false, time = true } = {},
): string {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return "—";
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
  if (!time) return day;
  const clock = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}` +
    (seconds ? `:${two(at.getUTCSeconds())}` : "");
  return `${day}, ${clock} UTC`;
}

/** The admin's time zone name, e.g. "Europe/London" (for form hints). */
export function localTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  } catch {
    return "local time";
  }
}
