/**
 * The sign-in pages' Firebase side (./firebase), fetched when the person starts to use the form
 * rather than with the page: the page paints, settles and answers without Firebase's script, and
 * by the time the form is sent it has arrived. The module system keeps the one copy however often
 * this is called.
 */
export function loadFirebase() {
  return import("./firebase");
}

function preloadFirebase(): void {
  // A failed fetch is the sign-in's to report, when the form is sent and asks again.
  loadFirebase().catch(() => undefined);
}

/** Ref callback for a sign-in form: Firebase is fetched on the first focus or pointer inside it. */
export function preloadFirebaseOnUse(form: HTMLFormElement | null): void {
  for (const type of ["focusin", "pointerover"])
    form?.addEventListener(type, preloadFirebase, { once: true });
}
