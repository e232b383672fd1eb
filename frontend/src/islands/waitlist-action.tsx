import { authorisedFetch } from "../lib/api";
import { confirmThenCall } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";

interface Props {
  /** DELETE /api/waitlist/{id}, reversed by the server. */
  url: string;
  /** Whether the slot is being held for the person (leaving passes it to the next in line). */
  offered: boolean;
  /** Which place, for screen readers: "Centre, 08:00-09:00, November 25, 2026". */
  place: string;
}

/**
 * Leaves a waitlist (docs/rules.md, Waitlist), after asking; the page reloads to show it. (A taken
 * cell of the day sheet joins one: frontend/src/islands/schedule.tsx.)
 */
function LeaveWaitlist({ url, offered, place }: Props) {
  async function leave() {
    const left = await confirmThenCall(
      {
        title: "Leave this waitlist?",
        text: offered
          ? "The slot held for you goes to the next person in line."
          : "You lose your place in line.",
        confirmButtonText: "Yes, leave it",
        cancelButtonText: "No, stay",
      },
      () => authorisedFetch(url, { method: "DELETE" }),
      "You are still on the waitlist.",
    );
    if (left) window.location.reload();
  }

  return (
    <button type="button" className="btn btn-sm btn-outline" onClick={() => void leave()}>
      Leave<span className="sr-only">{` (${place})`}</span>
    </button>
  );
}

mountIslands("waitlist-action", LeaveWaitlist);
