import { authorisedFetch } from "../lib/api";
import { confirmThenCall } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

interface Props {
  /** POST /api/memberships/me/cancel, reversed by the server. */
  url: string;
  /** When the membership ends instead of renewing, as the page words it. */
  endsOn: string;
}

/** Ends the caller's renewing membership when the period paid ends; the page reloads to show it. */
function MembershipCancel({ url, endsOn }: Props) {
  async function cancel() {
    const done = await confirmThenCall(
      {
        title: "Cancel your renewal?",
        text: `Your membership keeps its benefits until ${endsOn}, then ends. You are not charged again.`,
        confirmButtonText: "Yes, do not renew",
        cancelButtonText: "No, keep renewing",
      },
      () =>
        authorisedFetch<{ detail: string }>(url, { method: "POST" }).then(({ detail }) =>
          notify.success(detail),
        ),
      "The renewal could not be cancelled.",
    );
    if (done) window.setTimeout(() => window.location.reload(), 1200);
  }

  return (
    <button type="button" className="btn btn-outline" onClick={() => void cancel()}>
      Cancel renewal
    </button>
  );
}

mountIslands("membership-cancel", MembershipCancel);
