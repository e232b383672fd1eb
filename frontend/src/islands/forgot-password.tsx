import { FirebaseError } from "firebase/app";
import { sendPasswordResetEmail } from "firebase/auth";
import { type FormEvent, useState } from "react";

import { LocalLinksHint } from "../components/LocalLinksHint";
import { signInErrorMessage } from "../lib/authErrors";
import { islandConfig } from "../lib/config";
import { firebaseAuth } from "../lib/firebase";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

/** Said whether or not the address has an account: the page must not tell who is a member. */
const SENT =
  "If an account uses this address, we have sent it a link to choose a new password. Check your inbox.";

/** The /forgot-password form: Firebase e-mails the reset link, which ends on the sign-in page. */
function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  async function send() {
    setBusy(true);
    try {
      await sendPasswordResetEmail(firebaseAuth(), email.trim(), {
        url: new URL(islandConfig().urls.login, window.location.origin).href,
      });
      setSent(true);
    } catch (failure) {
      if (failure instanceof FirebaseError && failure.code === "auth/user-not-found") setSent(true);
      else if (failure instanceof FirebaseError && failure.code === "auth/invalid-email")
        setError("Please enter a valid e-mail address.");
      else notify.failure(signInErrorMessage(failure, "The link could not be sent. Please try again later."));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSent(false);
    const missing = email.trim() ? "" : "Email is required";
    setError(missing);
    if (!missing) void send();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4 mt-4">
      <fieldset disabled={busy} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="forgot-email" className="font-medium">
            Email
          </label>
          <input
            id="forgot-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            className={`input w-full${error ? " input-error" : ""}`}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setError("");
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "forgot-email-error" : undefined}
          />
          {error && (
            <p id="forgot-email-error" className="text-error text-sm">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-primary w-full">
          {busy ? "Sending..." : "Send the link"}
        </button>
      </fieldset>
      <div role="status">
        {sent && (
          <div className="alert alert-success flex flex-col items-start gap-2">
            <p>{SENT}</p>
            <LocalLinksHint />
          </div>
        )}
      </div>
    </form>
  );
}

mountIslands("forgot-password", ForgotPassword);
