import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import toast, { Toaster } from "react-hot-toast";

import { ApiError } from "./api";

/*
 * How every island tells a person how something went, so the same kind of outcome looks the same
 * everywhere:
 * - a value that is refused is shown under its field (`fieldErrors` in ./dialogs);
 * - an action or a load that failed is a toast saying what failed, followed by the server's reason
 *   when it gave one (`notify.failure`); a refused form is both;
 * - what was done is a toast (`notify.success`), or the dialog the product names for that action.
 */

let host: HTMLElement | null = null;

/**
 * The page's one toast host (react-hot-toast: top-center, at most 20 kept, errors 4000 ms,
 * successes 2000 ms, loading until dismissed), made the first time an island needs it; islands
 * share this module (Vite puts it in a common chunk), so however many call it, there is one host.
 * An open modal dialog makes the rest of the page inert and covers it, so the host moves into it
 * while it is open: a toast is seen and read out above the dialog that caused it.
 */
function placeToastHost(): void {
  if (!host) {
    host = document.createElement("div");
    host.id = "toast-host";
    createRoot(host).render(
      <StrictMode>
        <Toaster
          position="top-center"
          toastOptions={{ success: { duration: 2000 }, error: { duration: 4000 } }}
        />
      </StrictMode>,
    );
  }
  const parent = document.querySelector("dialog:modal") ?? document.body;
  if (host.parentElement !== parent) parent.append(host);
}

/** `what`, ended as a sentence before a reason follows it: "Action failed" + reason → "Action failed. …". */
function withReason(what: string, reason: string): string {
  if (!reason) return what;
  return `${/[.!?]$/.test(what) ? what : `${what}.`} ${reason}`;
}

export const notify = {
  /** Something failed: `what` failed (the product's sentence), and the server's reason if `error` carries one. */
  failure(what: string, error?: unknown, options?: { id?: string }): void {
    placeToastHost();
    toast.error(withReason(what, error instanceof ApiError ? error.reason : ""), options);
  },
  success(text: string, options?: { id?: string }): void {
    placeToastHost();
    toast.success(text, options);
  },
  info(text: string, options?: { id?: string }): void {
    placeToastHost();
    toast(text, options);
  },
};
