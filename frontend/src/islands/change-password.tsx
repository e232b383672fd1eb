import { FirebaseError } from "firebase/app";
import { signInWithEmailAndPassword, updatePassword } from "firebase/auth";
import { type FormEvent, useState } from "react";

import type { components } from "../api/schema";
import { apiFetch } from "../lib/api";
import { signInErrorMessage } from "../lib/authErrors";
import { islandConfig } from "../lib/config";
import { firebaseAuth } from "../lib/firebase";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

type Field = "current" | "next";
const LABELS: Record<Field, string> = { current: "Current password", next: "New password" };
const AUTOCOMPLETE: Record<Field, string> = { current: "current-password", next: "new-password" };
const REQUIRED: Record<Field, string> = {
  current: "Please enter your current password.",
  next: "Please enter a new password.",
};
const WRONG_CURRENT = ["auth/wrong-password", "auth/invalid-credential", "auth/invalid-login-credentials"];
const WEAK_NEW = ["auth/weak-password", "auth/password-does-not-meet-requirements"];

/** Which field a refusal from Firebase is about, if it is about one. */
function fieldOf(error: unknown): Field | null {
  if (!(error instanceof FirebaseError)) return null;
  if (WRONG_CURRENT.includes(error.code)) return "current";
  if (WEAK_NEW.includes(error.code)) return "next";
  return null;
}

/**
 * The profile page's password form (docs/rules.md, Your account). Firebase keeps the password: the
 * browser proves the current one by signing in with it (this site keeps no Firebase session in the
 * browser, so there is no signed-in Firebase user to re-authenticate), then sets the new one.
 * Firebase voids the account's older credentials when its password changes, so this browser's
 * session is renewed from the fresh sign-in; other devices are signed out.
 */
function ChangePassword({ email }: { email: string }) {
  const [values, setValues] = useState<Record<Field, string>>({ current: "", next: "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  async function change() {
    setBusy(true);
    try {
      const { user } = await signInWithEmailAndPassword(firebaseAuth(), email, values.current);
      await updatePassword(user, values.next);
      await apiFetch(islandConfig().urls.session, {
        method: "POST",
        body: { idToken: await user.getIdToken(true) } satisfies components["schemas"]["SessionInputRequest"],
      });
      setValues({ current: "", next: "" });
      setDone(true);
    } catch (error) {
      const field = fieldOf(error);
      const message =
        field === "current"
          ? "Your current password is not correct."
          : signInErrorMessage(error, "The password could not be changed. Please try again.");
      if (field) setErrors({ [field]: message });
      else notify.failure(message);
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(false);
    const missing = Object.fromEntries(
      (Object.keys(REQUIRED) as Field[])
        .filter((field) => !values[field])
        .map((field) => [field, REQUIRED[field]]),
    );
    setErrors(missing);
    if (Object.keys(missing).length === 0) void change();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <fieldset disabled={busy} className="flex flex-col gap-4">
        {(Object.keys(LABELS) as Field[]).map((field) => (
          <div key={field} className="flex flex-col gap-1">
            <label htmlFor={`password-${field}`} className="font-medium">
              {LABELS[field]}
            </label>
            <input
              id={`password-${field}`}
              name={field}
              type="password"
              autoComplete={AUTOCOMPLETE[field]}
              required
              className={`input w-full${errors[field] ? " input-error" : ""}`}
              value={values[field]}
              onChange={(event) => {
                setValues({ ...values, [field]: event.target.value });
                setErrors({ ...errors, [field]: undefined });
              }}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `password-${field}-error` : undefined}
            />
            {errors[field] && (
              <p id={`password-${field}-error`} className="text-error text-sm">
                {errors[field]}
              </p>
            )}
          </div>
        ))}
        <button type="submit" className="btn btn-primary self-start">
          {busy ? "Changing..." : "Change password"}
        </button>
      </fieldset>
      <p role="status" className="text-success text-sm">
        {done ? "Your password has been changed. Other devices have been signed out." : ""}
      </p>
    </form>
  );
}

mountIslands("change-password", ChangePassword);
