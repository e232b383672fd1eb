import { useState } from "react";

import { ApiError } from "../lib/api";
import { signInErrorMessage } from "../lib/authErrors";
import { loadFirebase } from "../lib/loadFirebase";
import { notify } from "../lib/notify";
import { LocalLinksHint } from "./LocalLinksHint";

/** Whether the server refused a sign-in until its e-mail address is verified. */
export function needsVerification(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "email_not_verified";
}

/** The server's word that the e-mail must be verified first, and a button to send the link again. */
export function VerifyEmailNotice({ message }: { message: string }) {
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    try {
      await (await loadFirebase()).sendVerificationEmail();
      notify.success("We sent the link again.");
    } catch (error) {
      notify.failure(signInErrorMessage(error, "The link could not be sent. Please try again later."));
    } finally {
      setSending(false);
    }
  }

  return (
    <div role="alert" className="alert alert-warning flex flex-col items-start gap-2 mt-4">
      <p>{message}</p>
      <button type="button" className="btn btn-sm" onClick={() => void resend()} disabled={sending}>
        {sending ? "Sending..." : "Send the link again"}
      </button>
      <LocalLinksHint />
    </div>
  );
}
