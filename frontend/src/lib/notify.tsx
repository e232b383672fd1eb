import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import toast, { type Toast, ToastBar, Toaster } from "react-hot-toast";

import { ApiError } from "./api";

/*
 * How every island tells a person how something went, so the same kind of outcome looks the same
 * everywhere:
 * - a value that is refused is shown under its field (`fieldErrors` in ./dialogs);
 * - an action or a load that failed is a toast saying what failed, followed by the server's reason
 *   when it gave one (`notify.failure`); a refused form is both. It stays until it is closed (its
 *   Close button) or a dialog opens (`dismissFailures`, which the dialogs of ./dialogs call), and
 *   it stands at the bottom of the screen, clear of the page's heading; a failure the page also
 *   says beside its form goes after 4 s (`alsoOnThePage`);
 * - what was done is a toast (`notify.success`), or the dialog the product names for that action.
 */

let host: HTMLElement | null = null;

/** The failures shown, until each is closed. */
const failures = new Set<string>();

/** A toast as react-hot-toast draws it, and for a failure a Close button, for pointer and keyboard. */
function ToastWithClose({ shown }: { shown: Toast }) {
  return (
    <ToastBar toast={shown}>
      {({ icon, message }) => (
        <>
          {icon}
          {message}
          {shown.type === "error" && (
            <button
              type="button"
              className="btn btn-ghost btn-xs btn-square"
              aria-label="Close this message"
              onClick={() => toast.dismiss(shown.id)}
            >
              <span aria-hidden="true">✕</span>
            </button>
          )}
        </>
      )}
    </ToastBar>
  );
}

/**
 * The page's one toast host (react-hot-toast: top-center, at most 20 kept, successes 2000 ms,
 * loading until dismissed; failures as above), made the first time an island needs it; islands
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
          toastOptions={{
            success: { duration: 2000 },
            error: { duration: Infinity, position: "bottom-center" },
          }}
        >
          {(shown) => <ToastWithClose shown={shown} />}
        </Toaster>
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

/** Closes the failures' toasts: a dialog that follows them says what happened next. */
export function dismissFailures(): void {
  failures.forEach((id) => toast.remove(id));
  failures.clear();
}

export const notify = {
  /**
   * Something failed: `what` failed (the product's sentence), and the server's reason if `error`
   * carries one. `alsoOnThePage`: the page says it beside its form too, where it stays (the
   * text returned, as the toast says it).
   */
  failure(what: string, error?: unknown, options?: { id?: string; alsoOnThePage?: boolean }): string {
    placeToastHost();
    const { alsoOnThePage, ...shown } = options ?? {};
    const text = withReason(what, error instanceof ApiError ? error.reason : "");
    failures.add(toast.error(text, alsoOnThePage ? { ...shown, duration: 4000 } : shown));
    return text;
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
