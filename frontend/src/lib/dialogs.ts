import Swal from "sweetalert2";

import { ApiError } from "./api";

/** sweetalert2's buttons as the site's daisyUI buttons, `confirm` the confirming one's colour. */
function themed(confirm: string) {
  return Swal.mixin({
    buttonsStyling: false,
    customClass: { confirmButton: `btn ${confirm}`, cancelButton: "btn", actions: "gap-2" },
  });
}

/** Every dialog of the site (sweetalert2) in the site's theme. */
export const dialog = themed("btn-primary");

/** A question whose yes cannot be undone (delete, cancel, reject): its yes is red. */
export const warningDialog = themed("btn-error");

/** The admin pages' deletion question (sweetalert2): 'Are you sure?', `text`, 'Yes, delete it!'. */
export async function confirmDeletion(text: string): Promise<boolean> {
  const answer = await warningDialog.fire({
    title: "Are you sure?",
    text,
    icon: "warning",
    showCancelButton: true,
    confirmButtonText: "Yes, delete it!",
  });
  return answer.isConfirmed;
}

/** The first message for each field of a 400 from the API, to show under the fields. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  return Object.fromEntries(
    Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
  );
}
