import { type BookingAction as Action, LABELS, actOnBooking } from "../lib/bookingActions";
import { mountIslands } from "../lib/islands";

interface Props {
  action: Action;
  /** The API call for this booking and action, reversed by the server. */
  url: string;
  /** cancel-confirmed: what the policy gives back, as the server words it; cancel-series: what is cancelled. */
  refund?: string;
  /** The button's words, where the action's own would not say enough. */
  label?: string;
}

/** One button acting on one booking in a server-rendered table; the page reloads to show the result. */
function BookingActionButton({ action, url, refund, label }: Props) {
  async function act() {
    if (await actOnBooking(action, url, refund)) window.location.reload();
  }

  const style = action.startsWith("approve")
    ? "btn-success"
    : action === "reject"
      ? "btn-error btn-outline"
      : "btn-outline";
  return (
    <button type="button" className={`btn btn-sm ${style}`} onClick={() => void act()}>
      {label ?? LABELS[action]}
    </button>
  );
}

mountIslands("booking-action", BookingActionButton);
