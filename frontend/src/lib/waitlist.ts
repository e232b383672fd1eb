import { authorisedFetch } from "./api";
import { confirmThenCall } from "./dialogs";

/**
 * Leaves a place on a waitlist (DELETE /api/waitlist/{id}, `url`), after asking; answers whether it
 * was left. `offered`: the slot is held for the person, and leaving passes it to the next in line.
 */
export function leaveWaitlist(url: string, offered: boolean): Promise<boolean> {
  return confirmThenCall(
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
}
