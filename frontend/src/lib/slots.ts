/** Slots ("09:00-10:00") as people read them, by the server's rule (kernel/slots.py, slot_ranges):
 * slots that follow on from one another read as one range ("09:00–11:00"), others stay apart, in
 * time order; a label that names no slot is kept as it is, last. */
export function slotRanges(slots: string[]): string[] {
  const times: [string, string][] = [];
  const unread: string[] = [];
  for (const slot of slots) {
    const [start, end] = /^(\d\d:\d\d)-(\d\d:\d\d)$/.exec(slot)?.slice(1) ?? [];
    if (start && end) times.push([start, end]);
    else unread.push(slot);
  }
  // "HH:MM" strings order as the times they name.
  times.sort(([a, b], [c, d]) => a.localeCompare(c) || b.localeCompare(d));
  const merged: [string, string][] = [];
  for (const [start, end] of times) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = end > last[1] ? end : last[1];
    else merged.push([start, end]);
  }
  return [...merged.map(([start, end]) => `${start}\u2013${end}`), ...unread];
}

/** The slots as one text, their ranges joined by commas (the spec: 'N/A' when there are none). */
export function slotsLabel(slots: string[]): string {
  return slotRanges(slots).join(", ") || "N/A";
}
