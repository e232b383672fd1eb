import type { components } from "../api/schema";
import { authorisedFetch } from "./api";
import { notify } from "./notify";

type BookingRequestInput = components["schemas"]["BookingRequestInputRequest"];
type BookingCreated = components["schemas"]["BookingCreatedOutput"];

/**
 * Requests a booking and tells the person what comes next: an instant booking (approved as it is
 * made) goes straight to its payment; a request waits for an admin. Answers whether the page stays.
 */
export async function requestBooking(url: string, body: BookingRequestInput): Promise<boolean> {
  const booking = await authorisedFetch<BookingCreated>(url, { method: "POST", body });
  if (booking.payUrl) {
    notify.success("Slots held: pay now to confirm them.");
    window.location.assign(booking.payUrl);
    return false;
  }
  notify.success("Booking request sent.");
  return true;
}
