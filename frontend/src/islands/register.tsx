import { type FormEvent, useState } from "react";

import { GoogleButton } from "../components/GoogleButton";
import { needsVerification, VerifyEmailNotice } from "../components/VerifyEmailNotice";
import { signInErrorMessage } from "../lib/authErrors";
import { mountIslands } from "../lib/islands";
import { loadFirebase, preloadFirebaseOnUse } from "../lib/loadFirebase";
import { notify } from "../lib/notify";

type Field = "name" | "email" | "password";
const REQUIRED: Record<Field, string> = {
  name: "Full name is required",
  email: "Email is required",
  password: "Password is required",
};
const LABELS: Record<Field, string> = { name: "Full Name", email: "Email", password: "Password" };
const INPUTS: Record<Field, { type: string; autoComplete: string }> = {
  name: { type: "text", autoComplete: "name" },
  email: { type: "email", autoComplete: "email" },
  password: { type: "password", autoComplete: "new-password" },
};

/**
 * The /register form (docs/rules.md, Identity and sign-in): after registering with an e-mail and
 * a password, where the verification link went, and on to `next`; with Google, straight to `next`.
 * templates/accounts/register.html renders its first state, so change both
 * (e2e/test_sign_in_pages.py fails when mounting it moves the page).
 */
function RegisterForm({ next }: { next: string }) {
  const [values, setValues] = useState<Record<Field, string>>({ name: "", email: "", password: "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState<"email" | "google" | null>(null);
  const [unverified, setUnverified] = useState("");
  // The address the verification link was sent to, once registered.
  const [linkSentTo, setLinkSentTo] = useState("");

  async function register(how: "email" | "google") {
    setBusy(how);
    setUnverified("");
    try {
      const firebase = await loadFirebase();
      if (how === "email") {
        const user = await firebase.registerWithPassword(
          values.name.trim(),
          values.email.trim(),
          values.password,
        );
        await firebase.sendVerificationEmail();
        await firebase.startServerSession(user, "register");
        setLinkSentTo(user.email ?? values.email.trim());
        return;
      }
      await firebase.startServerSession(await firebase.signInWithGoogle(), "google-register");
      window.location.replace(next);
    } catch (error) {
      if (needsVerification(error)) setUnverified(error.message);
      else
        notify.failure(
          signInErrorMessage(error, how === "email" ? "Registration failed!" : "Google sign-in failed!"),
        );
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = Object.fromEntries(
      (Object.keys(REQUIRED) as Field[])
        .filter((field) => !values[field].trim())
        .map((field) => [field, REQUIRED[field]]),
    );
    setErrors(missing);
    if (Object.keys(missing).length === 0) void register("email");
  }

  if (linkSentTo) {
    return (
      <div className="flex flex-col gap-4">
        <VerifyEmailNotice
          justSent
          message={`We sent a verification e-mail to ${linkSentTo}. Open the link in it to verify your address.`}
        />
        <a className="btn btn-primary w-full" href={next}>
          Continue
        </a>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} ref={preloadFirebaseOnUse} noValidate className="flex flex-col gap-4 mt-4">
      {unverified && <VerifyEmailNotice message={unverified} />}
      <fieldset disabled={busy !== null} className="flex flex-col gap-4">
        {(Object.keys(LABELS) as Field[]).map((field) => (
          <div key={field} className="flex flex-col gap-1">
            <label htmlFor={`register-${field}`} className="font-medium">
              {LABELS[field]}
            </label>
            <input
              id={`register-${field}`}
              name={field}
              {...INPUTS[field]}
              required
              className={`input w-full${errors[field] ? " input-error" : ""}`}
              value={values[field]}
              onChange={(event) => setValues({ ...values, [field]: event.target.value })}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `register-${field}-error` : undefined}
            />
            {errors[field] && (
              <p id={`register-${field}-error`} className="text-error text-sm">
                {errors[field]}
              </p>
            )}
          </div>
        ))}
        <button type="submit" className="btn btn-primary w-full">
          {busy === "email" ? "Registering..." : "Sign Up"}
        </button>
        <div className="divider text-sm">Or register with</div>
        <GoogleButton
          busy={busy === "google"}
          disabled={busy !== null}
          onClick={() => void register("google")}
        />
      </fieldset>
    </form>
  );
}

mountIslands("register", RegisterForm);
