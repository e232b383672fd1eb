import { mountIslands } from "../lib/islands";
import { leaveWaitlist } from "../lib/waitlist";

interface Props {
  /** DELETE /api/waitlist/{id}, reversed by the server. */
  url: string;
  /** Whether the slot is being held for the person (leaving passes it to the next in line). */
  offered: boolean;
  /** Which place, for screen readers: "Centre, 08:00-09:00, November 25, 2026". */
  place: string;
}

/**
 * Leaves a waitlist (docs/rules.md, Waitlist), after asking; the page reloads to show it. (The day
 * sheet's cells join and leave one too: frontend/src/islands/schedule.tsx.)
 */
function LeaveWaitlist({ url, offered, place }: Props) {
  async function leave() {
    if (await leaveWaitlist(url, offered)) window.location.reload();
  }

  return (
    <button type="button" className="btn btn-sm btn-outline" onClick={() => void leave()}>
      Leave<span className="sr-only">{` (${place})`}</span>
    </button>
  );
}

mountIslands("waitlist-action", LeaveWaitlist);
