import { useEffect, useState } from "react";

import { ApiError } from "../lib/api";
import { signInErrorMessage } from "../lib/authErrors";
import { loadFirebase } from "../lib/loadFirebase";
import { notify } from "../lib/notify";
import { LocalLinksHint } from "./LocalLinksHint";

/** Time between two sends of the link (ms): a second e-mail rarely arrives before the first. */
const RESEND_AFTER_MS = 30_000;

/** Whether the server refused a sign-in until its e-mail address is verified. */
export function needsVerification(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "email_not_verified";
}

/**
 * `message` about verifying the e-mail address, and a button to send the link again, once every
 * 30 s. `justSent`: the link has just been sent (after registering), which is news, not a warning.
 */
export function VerifyEmailNotice({ message, justSent = false }: { message: string; justSent?: boolean }) {
  const [sending, setSending] = useState(false);
  const [now, setNow] = useState(Date.now);
  // When the link may be sent again: timed by the clock, so a tab in the background counts right.
  const [resendAt, setResendAt] = useState(() => (justSent ? Date.now() + RESEND_AFTER_MS : 0));
  const secondsToWait = Math.max(0, Math.ceil((resendAt - now) / 1000));

  useEffect(() => {
    const tick = window.setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= resendAt) window.clearInterval(tick);
    }, 1000);
    return () => window.clearInterval(tick);
  }, [resendAt]);

  async function resend() {
    setSending(true);
    try {
      await (await loadFirebase()).sendVerificationEmail();
      notify.success("We sent the link again.");
      setNow(Date.now());
      setResendAt(Date.now() + RESEND_AFTER_MS);
    } catch (error) {
      notify.failure(signInErrorMessage(error, "The link could not be sent. Please try again later."));
    } finally {
      setSending(false);
    }
  }

  return (
    <div
      role={justSent ? "status" : "alert"}
      className={`alert ${justSent ? "alert-info" : "alert-warning"} flex flex-col items-start gap-2 mt-4`}
    >
      <p>{message}</p>
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => void resend()}
        disabled={sending || secondsToWait > 0}
      >
        {sending ? "Sending..." : "Send the link again"}
      </button>
      {secondsToWait > 0 && <p className="text-sm">You can send it again in {secondsToWait} s.</p>}
      <LocalLinksHint />
    </div>
  );
}
