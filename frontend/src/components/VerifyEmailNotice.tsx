import { sendEmailVerification } from "firebase/auth";
import { useState } from "react";

import { ApiError } from "../lib/api";
import { signInErrorMessage } from "../lib/authErrors";
import { islandConfig } from "../lib/config";
import { firebaseAuth } from "../lib/firebase";
import { notify } from "../lib/notify";

/** Whether the server refused a sign-in until its e-mail address is verified. */
export function needsVerification(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "email_not_verified";
}

/** Sends Firebase's verification e-mail to the person signed in to Firebase on this page. */
export async function sendVerificationEmail(): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) return;
  // The link in the e-mail ends on our sign-in page, to sign in with the address now verified.
  await sendEmailVerification(user, { url: new URL(islandConfig().urls.login, window.location.origin).href });
}

/** The server's word that the e-mail must be verified first, and a button to send the link again. */
export function VerifyEmailNotice({ message }: { message: string }) {
  const [sending, setSending] = useState(false);
  const localLinks = islandConfig().urls.localAuthLinks;

  async function resend() {
    setSending(true);
    try {
      await sendVerificationEmail();
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
      {localLinks && (
        <p className="text-sm">
          Local mode: the link is on the{" "}
          <a className="link" href={localLinks}>
            page of sign-in links
          </a>
          .
        </p>
      )}
    </div>
  );
}
