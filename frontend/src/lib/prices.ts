/**
 * What a court's slots cost on a day, as the server prices them (courts/pricing.py, docs/rules.md,
 * Prices): the price of the first of the court's bands a slot starts in, else the court's own. The
 * server prices every booking itself and refuses another total; change both together.
 */
import type { components } from "../api/schema";

export type PriceBand = components["schemas"]["PriceBandOutput"];

/** The weekday of an ISO date ("2026-06-01"), Monday 0 to Sunday 6, as Python's date.weekday(). */
export function weekdayOf(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The price of `slot` ("HH:MM-HH:MM") on `date`: its band's, else `price`, the court's own. */
export function slotPrice(price: string, bands: PriceBand[], date: string, slot: string): string {
  const weekday = weekdayOf(date);
  const start = slot.slice(0, 5);
  const band = bands.find(
    (candidate) =>
      candidate.weekdays.includes(weekday) && candidate.starts <= start && start < candidate.ends,
  );
  return band ? band.price : price;
}

/** The sum of prices in dollars ("25.50"), added up in cents so that no binary fraction creeps in. */
export function totalOf(prices: string[]): string {
  const cents = prices.reduce((sum, price) => sum + Math.round(Number(price) * 100), 0);
  return (cents / 100).toFixed(2);
}
