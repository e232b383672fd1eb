import Swal, { type SweetAlertOptions } from "sweetalert2";

import { ApiError } from "./api";
import { dismissFailures, notify } from "./notify";

/**
 * sweetalert2's buttons as the site's daisyUI buttons, `confirm` the confirming one's colour. A
 * dialog closes the failures' toasts before it: it says what happened next, and nothing covers it.
 */
function themed(confirm: string) {
  return Swal.mixin({
    willOpen: dismissFailures,
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

/**
 * Asks `question` (a warning, with its yes and no), then makes `call`; answers whether it was
 * done. When the server refuses, a toast says `failed`, with the server's reason.
 */
export async function confirmThenCall(
  question: SweetAlertOptions,
  call: () => Promise<unknown>,
  failed: string,
): Promise<boolean> {
  const answer = await warningDialog.fire({ icon: "warning", showCancelButton: true, ...question });
  if (!answer.isConfirmed) return false;
  try {
    await call();
  } catch (error) {
    notify.failure(failed, error);
    return false;
  }
  return true;
}

/** The first message for each field of a 400 from the API, to show under the fields. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  return Object.fromEntries(
    Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
  );
}

/**
 * Text for a dialog's HTML: e-mail addresses, names and the server's reasons may quote what people
 * typed (a block's reason).
 */
export function escape(text: string): string {
  const span = document.createElement("span");
  span.textContent = text;
  return span.innerHTML;
}
