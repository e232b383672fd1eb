import Swal from "sweetalert2";

import { ApiError } from "./api";

/** The admin pages' deletion question (sweetalert2): 'Are you sure?', `text`, 'Yes, delete it!'. */
export async function confirmDeletion(text: string): Promise<boolean> {
  const answer = await Swal.fire({
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
