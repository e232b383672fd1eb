import { initializeApp } from "firebase/app";
import {
  type Auth,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  sendEmailVerification,
  signInWithEmailAndPassword,
  signInWithPopup,
  updateProfile,
  type User,
} from "firebase/auth";

import type { components } from "../api/schema";
import { apiFetch } from "./api";
import { islandConfig } from "./config";

let auth: Auth | undefined;

/**
 * Firebase Auth for the sign-in islands. The browser keeps no Firebase session of its own
 * (in-memory persistence): once the server has set its session cookie, that cookie is the session.
 */
export function firebaseAuth(): Auth {
  if (!auth) {
    const { firebase } = islandConfig();
    const app = initializeApp({
      apiKey: firebase.apiKey,
      authDomain: firebase.authDomain,
      projectId: firebase.projectId,
    });
    auth = initializeAuth(app, {
      persistence: inMemoryPersistence,
      popupRedirectResolver: browserPopupRedirectResolver,
    });
    if (firebase.emulatorUrl) connectAuthEmulator(auth, firebase.emulatorUrl, { disableWarnings: true });
  }
  return auth;
}

export async function signInWithGoogle(): Promise<User> {
  return (await signInWithPopup(firebaseAuth(), new GoogleAuthProvider())).user;
}

export async function signInWithPassword(email: string, password: string): Promise<User> {
  return (await signInWithEmailAndPassword(firebaseAuth(), email, password)).user;
}

/** A new Firebase account with e-mail and password, named `name`. */
export async function registerWithPassword(name: string, email: string, password: string): Promise<User> {
  const { user } = await createUserWithEmailAndPassword(firebaseAuth(), email, password);
  await updateProfile(user, { displayName: name });
  return user;
}

/** Sends Firebase's verification e-mail to the person signed in to Firebase on this page. */
export async function sendVerificationEmail(): Promise<void> {
  const user = firebaseAuth().currentUser;
  if (!user) return;
  // Firebase verifies the address (its action page, or the emulator's), then goes on to this page
  // of ours, which says so.
  await sendEmailVerification(user, {
    url: new URL(islandConfig().urls.emailVerified, window.location.origin).href,
  });
}

/** What the server greets the person with on the next page (the texts: GREETINGS in accounts/serializers.py). */
export type Greeting = components["schemas"]["GreetingEnum"];

/** Hands the signed-in user's ID token to the server, which verifies it and sets the session cookie. */
export async function startServerSession(user: User, greeting: Greeting): Promise<void> {
  const idToken = await user.getIdToken(true);
  await apiFetch(islandConfig().urls.session, {
    method: "POST",
    body: { idToken, greeting } satisfies components["schemas"]["SessionInputRequest"],
  });
}
