/**
 * The one way the islands write a date or a moment, in the club's time zone, exactly as the server's
 * `club_time` filters do (kernel/templatetags/club_time.py): "November 24, 2026, 3:05 PM" and
 * "November 24, 2026". Change both together.
 */
import { islandConfig } from "./config";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone} ${String(withTime)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(document.documentElement.lang || "en", {
      timeZone,
      year: "numeric",
      month: "long",
      day: "numeric",
      ...(withTime && { hour: "numeric", minute: "2-digit", hour12: true }),
    });
    formats.set(key, format);
  }
  return format;
}

/** The parts are joined here rather than by Intl, whose punctuation varies between versions ("at", U+202F). */
function write(date: Date, timeZone: string, withTime: boolean): string {
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatter(timeZone, withTime).formatToParts(date)) {
    part[type] = value;
  }
  const day = `${part.month ?? ""} ${part.day ?? ""}, ${part.year ?? ""}`;
  return withTime ? `${day}, ${part.hour ?? ""}:${part.minute ?? ""} ${part.dayPeriod ?? ""}` : day;
}

/** A moment (an ISO 8601 string with its offset, as the API gives it) in the club's time zone. */
export function formatMoment(moment: string): string {
  return write(new Date(moment), islandConfig().timeZone, true);
}

/**
 * A calendar day: an ISO date ("2026-11-24") is that day wherever the club is; a moment gives its
 * day in the club's time zone.
 */
export function formatDay(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return write(new Date(`${value}T00:00:00Z`), "UTC", false);
  }
  return write(new Date(value), islandConfig().timeZone, false);
}
