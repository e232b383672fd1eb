import { type FormEvent, useState } from "react";

import { GoogleButton } from "../components/GoogleButton";
import { needsVerification, VerifyEmailNotice } from "../components/VerifyEmailNotice";
import { signInErrorMessage } from "../lib/authErrors";
import { mountIslands } from "../lib/islands";
import { loadFirebase, preloadFirebaseOnUse } from "../lib/loadFirebase";
import { notify } from "../lib/notify";

/**
 * The /login form (docs/rules.md, Identity and sign-in). `next`: where to go once signed in, checked
 * by the server. templates/accounts/login.html renders its first state, so change both
 * (e2e/test_sign_in_pages.py fails when mounting it moves the page).
 */
function LoginForm({ next }: { next: string }) {
  const [busy, setBusy] = useState<"email" | "google" | null>(null);
  const [unverified, setUnverified] = useState("");
  // Why the last try failed, beside the form: the toast that also says it goes after a while.
  const [failure, setFailure] = useState("");

  async function signIn(how: "email" | "google", form?: HTMLFormElement) {
    setBusy(how);
    setUnverified("");
    setFailure("");
    try {
      const firebase = await loadFirebase();
      if (how === "email" && form) {
        const { email, password } = form.elements as typeof form.elements &
          Record<"email" | "password", HTMLInputElement>;
        await firebase.startServerSession(
          await firebase.signInWithPassword(email.value, password.value),
          "login",
        );
      } else {
        await firebase.startServerSession(await firebase.signInWithGoogle(), "google-login");
      }
      window.location.replace(next); // replacing history: Back does not return to the login page
    } catch (error) {
      if (needsVerification(error)) setUnverified(error.message);
      else {
        const message = signInErrorMessage(
          error,
          how === "email" ? "Email login failed." : "Google Sign-in Failed",
        );
        setFailure(message);
        notify.failure(message, undefined, { alsoOnThePage: true });
      }
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void signIn("email", event.currentTarget);
  }

  return (
    <form onSubmit={onSubmit} ref={preloadFirebaseOnUse} className="flex flex-col gap-4 mt-4">
      {unverified && <VerifyEmailNotice message={unverified} />}
      {failure && (
        <p role="alert" className="alert alert-error">
          {failure}
        </p>
      )}
      <fieldset disabled={busy !== null} className="flex flex-col gap-4">
        <label className="flex flex-col gap-1">
          <span className="font-medium">Email</span>
          <input name="email" type="email" autoComplete="email" required className="input w-full" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="input w-full"
          />
        </label>
        <button type="submit" className="btn btn-primary w-full">
          {busy === "email" ? "Logging in..." : "Login"}
        </button>
        <GoogleButton
          busy={busy === "google"}
          disabled={busy !== null}
          onClick={() => void signIn("google")}
        />
      </fieldset>
    </form>
  );
}

mountIslands("login", LoginForm);
