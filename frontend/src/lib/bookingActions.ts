import type { SweetAlertOptions } from "sweetalert2";

import { authorisedFetch } from "./api";
import { dialog, warningDialog } from "./dialogs";
import { notify } from "./notify";

/** What an admin or a booking's owner may do to a booking from a page (docs/rules.md). */
export type BookingAction =
  | "cancel-pending"
  | "cancel-approved"
  | "cancel-confirmed"
  | "cancel-series"
  | "approve"
  | "approve-series"
  | "cancel-registration"
  | "cancel-program"
  | "reject";

export const LABELS: Record<BookingAction, string> = {
  "cancel-pending": "Cancel",
  "cancel-approved": "Cancel",
  "cancel-confirmed": "Cancel",
  "cancel-series": "Cancel this and the rest",
  approve: "Approve",
  "approve-series": "Approve the series",
  "cancel-registration": "Cancel my registration",
  "cancel-program": "Call the program off",
  reject: "Reject",
};

/** The confirmations asked before a cancellation or a rejection (with its reason); approvals need none. */
const CONFIRMATIONS: Partial<Record<BookingAction, SweetAlertOptions>> = {
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

/** The questions whose words the server gives (`refund`: what comes back, what is cancelled). */
const SERVERS_WORDS: Partial<
  Record<BookingAction, Pick<SweetAlertOptions, "title" | "confirmButtonText" | "cancelButtonText">>
> = {
  "cancel-confirmed": { title: "Cancel this paid booking?" },
  "cancel-series": {
    title: "Cancel the rest of the series?",
    confirmButtonText: "Yes, cancel them!",
    cancelButtonText: "No, keep them",
  },
  "cancel-registration": { title: "Cancel your place?" },
  "cancel-program": { title: "Call the program off?", confirmButtonText: "Yes, call it off!" },
};

/** What the toast says when it did not work (with the server's reason). */
const FAILED: Record<BookingAction, string> = {
  "cancel-pending": "Failed to cancel the booking.",
  "cancel-approved": "Failed to cancel the booking.",
  "cancel-confirmed": "Failed to cancel the booking.",
  "cancel-series": "Failed to cancel the series.",
  approve: "The booking was not approved.",
  "approve-series": "The series was not approved.",
  "cancel-registration": "Failed to cancel the registration.",
  "cancel-program": "The program was not called off.",
  reject: "The booking was not rejected.",
};

/** What the dialogs say once it is done; approval and rejection dialogs close after 2 s. */
const DONE: Record<BookingAction, SweetAlertOptions> = {
  "cancel-pending": { title: "Cancelled!", text: "Your booking has been cancelled.", icon: "success" },
  "cancel-approved": { title: "Cancelled!", text: "Your booking has been cancelled.", icon: "success" },
  "cancel-confirmed": {
    title: "Cancelled!",
    text: "The booking has been cancelled. Its refund goes back to the card it was paid with, and its owner is e-mailed when it is sent.",
    icon: "success",
  },
  "cancel-series": {
    title: "Cancelled!",
    text: "The rest of the series has been cancelled. Refunds go back to the card each was paid with.",
    icon: "success",
  },
  approve: { title: "Approved!", text: "Booking approved successfully.", icon: "success", timer: 2000 },
  "cancel-registration": {
    title: "Cancelled!",
    text: "Your place is cancelled. Any refund goes back to the card you paid with.",
    icon: "success",
  },
  "cancel-program": {
    title: "Called off!",
    text: "Everyone registered is refunded in full and told by e-mail.",
    icon: "success",
  },
  "approve-series": {
    title: "Approved!",
    text: "Every waiting date of the series is approved; its organiser is e-mailed once.",
    icon: "success",
    timer: 2000,
  },
  reject: { title: "Rejected!", text: "Booking rejected successfully.", icon: "success", timer: 2000 },
};

/** What an admin reads once they have cancelled a booking that may be someone else's. */
export const CANCELLED_BY_ADMIN: SweetAlertOptions = {
  title: "Cancelled!",
  text: "The booking has been cancelled.",
  icon: "success",
};

/**
 * Asks for confirmation (and a rejection's reason), makes the API call `url` for `action`, and
 * says how it went (`done`, else the action's own words); answers whether it was done. `refund`:
 * for a paid booking's cancellation, what is refunded, as the server words it; for a series',
 * what is cancelled and refunded.
 */
export async function actOnBooking(
  action: BookingAction,
  url: string,
  refund?: string,
  done: SweetAlertOptions = DONE[action],
): Promise<boolean> {
  const asked = SERVERS_WORDS[action];
  const confirmation = asked
    ? { ...CONFIRMATIONS["cancel-approved"], ...asked, text: refund }
    : CONFIRMATIONS[action];
  const answer = confirmation ? await warningDialog.fire<string>(confirmation) : null;
  if (answer && !answer.isConfirmed) return false;
  const body = action === "reject" ? { reason: answer?.value ?? "" } : undefined;
  try {
    await authorisedFetch(url, { method: action.startsWith("cancel") ? "DELETE" : "PATCH", body });
  } catch (error) {
    notify.failure(FAILED[action], error);
    return false;
  }
  await dialog.fire(done);
  return true;
}
