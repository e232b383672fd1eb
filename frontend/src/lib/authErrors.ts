import { ApiError } from "./api";

/**
 * Whether `error` is Firebase's (a FirebaseError, told by its name: importing the class would load
 * Firebase with every page that reports errors, before anyone signs in).
 */
function isFirebaseError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && error.name === "FirebaseError" && "code" in error;
}

/** Firebase's error codes as sentences a person understands. */
const SENTENCES: Record<string, string> = {
  "auth/email-already-in-use": "An account with this e-mail already exists. Sign in instead.",
  "auth/invalid-email": "Please enter a valid e-mail address.",
  "auth/wrong-password": "The e-mail or password is not correct.",
  "auth/invalid-credential": "The e-mail or password is not correct.",
  "auth/invalid-login-credentials": "The e-mail or password is not correct.",
  "auth/user-not-found": "The e-mail or password is not correct.",
  "auth/user-disabled": "This account has been disabled. Please contact the club.",
  "auth/too-many-requests": "Too many attempts. Please wait a few minutes and try again.",
  "auth/expired-action-code": "This link has expired. Please ask for a new one.",
  "auth/invalid-action-code": "This link is not valid any more. Please ask for a new one.",
  "auth/requires-recent-login": "Please sign in again to continue.",
  "auth/user-token-expired": "Your sign-in has expired. Please sign in again.",
  "auth/invalid-user-token": "Your sign-in has expired. Please sign in again.",
  "auth/weak-password": "The password is too short: use at least 6 characters.",
  "auth/popup-blocked": "The browser blocked the sign-in window. Allow pop-ups for this site and try again.",
  "auth/popup-closed-by-user": "The sign-in window was closed before you finished signing in.",
  "auth/cancelled-popup-request": "The sign-in window was closed before you finished signing in.",
  "auth/unauthorized-domain": "Signing in with Google is not enabled for this site's address.",
  "auth/network-request-failed":
    "We could not reach the sign-in service. Check your connection and try again.",
  "auth/multi-factor-auth-required":
    "This account needs a second sign-in step, which this site does not offer yet.",
  "auth/operation-not-allowed": "This way of signing in is not enabled for the club.",
  "auth/admin-restricted-operation": "This way of signing in is not enabled for the club.",
};

/** The requirements Firebase lists in a password-policy failure: "… [Password must …, …]". */
function policyRequirements(message: string): string {
  const listed = /\[(.+)\]/.exec(message)?.[1];
  return listed
    ? `Your password does not meet the requirements: ${listed}.`
    : "Your password does not meet the requirements.";
}

/** The message to show for a failed sign-in: a sentence for a known cause, else `fallback`. */
export function signInErrorMessage(error: unknown, fallback: string): string {
  if (isFirebaseError(error)) {
    if (error.code === "auth/password-does-not-meet-requirements") return policyRequirements(error.message);
    return SENTENCES[error.code] ?? fallback;
  }
  if (error instanceof ApiError) return error.message;
  return fallback;
}
