import type { SweetAlertOptions } from "sweetalert2";

import { authorisedFetch } from "../lib/api";
import { dialog, warningDialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

type Action = "cancel-pending" | "cancel-approved" | "approve" | "reject";

interface Props {
  action: Action;
  /** The API call for this booking and action, reversed by the server. */
  url: string;
}

const LABELS: Record<Action, string> = {
  "cancel-pending": "Cancel",
  "cancel-approved": "Cancel",
  approve: "Approve",
  reject: "Reject",
};

/** The confirmations asked before a cancellation or a rejection (with its reason); approvals need none. */
const CONFIRMATIONS: Partial<Record<Action, SweetAlertOptions>> = {
  "cancel-pending": {
    title: "Are you sure?",
    text: "Do you want to cancel this pending booking?",
    icon: "warning",
    showCancelButton: true,
    confirmButtonText: "Yes, cancel it!",
    cancelButtonText: "No, keep it",
  },
  "cancel-approved": {
    title: "Are you sure?",
    text: "Do you really want to cancel this booking?",
    icon: "warning",
    showCancelButton: true,
    confirmButtonText: "Yes, cancel it!",
    cancelButtonText: "No, keep it",
  },
  reject: {
    title: "Reject this booking?",
    text: "Its owner sees that it was rejected, and your reason if you give one.",
    icon: "warning",
    input: "textarea",
    inputLabel: "Reason (optional)",
    inputAttributes: { maxlength: "500" },
    showCancelButton: true,
    confirmButtonText: "Yes, reject it!",
    cancelButtonText: "No, keep it",
  },
};

/** What the toast says when it did not work (with the server's reason). */
const FAILED: Record<Action, string> = {
  "cancel-pending": "Failed to cancel the booking.",
  "cancel-approved": "Failed to cancel the booking.",
  approve: "The booking was not approved.",
  reject: "The booking was not rejected.",
};

/** What the dialogs say once it is done; approval and rejection dialogs close after 2 s. */
const DONE: Record<Action, SweetAlertOptions> = {
  "cancel-pending": { title: "Cancelled!", text: "Your booking has been cancelled.", icon: "success" },
  "cancel-approved": { title: "Cancelled!", text: "Your booking has been cancelled.", icon: "success" },
  approve: { title: "Approved!", text: "Booking approved successfully.", icon: "success", timer: 2000 },
  reject: { title: "Rejected!", text: "Booking rejected successfully.", icon: "success", timer: 2000 },
};

/** One button acting on one booking in a server-rendered table; the page reloads to show the result. */
function BookingAction({ action, url }: Props) {
  async function act() {
    const confirmation = CONFIRMATIONS[action];
    const answer = confirmation ? await warningDialog.fire<string>(confirmation) : null;
    if (answer && !answer.isConfirmed) return;
    const body = action === "reject" ? { reason: answer?.value ?? "" } : undefined;
    try {
      await authorisedFetch(url, { method: action.startsWith("cancel") ? "DELETE" : "PATCH", body });
    } catch (error) {
      notify.failure(FAILED[action], error);
      return;
    }
    await dialog.fire(DONE[action]);
    window.location.reload();
  }

  const style =
    action === "approve" ? "btn-success" : action === "reject" ? "btn-error btn-outline" : "btn-outline";
  return (
    <button type="button" className={`btn btn-sm ${style}`} onClick={() => void act()}>
      {LABELS[action]}
    </button>
  );
}

mountIslands("booking-action", BookingAction);
