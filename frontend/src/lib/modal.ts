/*
 * The site's modal dialogs (a native <dialog> opened with `openModal`) by keyboard: focus goes to
 * the first field one can fill, Tab and Shift+Tab go round the dialog's controls instead of leaving
 * it for the browser's own (the page behind is inert), Esc closes it (the browser's own), and
 * closing gives focus back to what opened it.
 */

const CONTROLS = "a[href], button, input, select, textarea, [tabindex]";

/** The dialog's tab stops, in order: enabled, shown, and not taken out of the tab order. */
function tabStops(dialog: HTMLDialogElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(CONTROLS)].filter(
    (control) => control.tabIndex >= 0 && !control.matches(":disabled") && control.checkVisibility(),
  );
}

function keepTabInside(event: KeyboardEvent): void {
  if (event.key !== "Tab") return;
  const stops = tabStops(event.currentTarget as HTMLDialogElement);
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const wrapTo = event.shiftKey
    ? document.activeElement === first && last
    : document.activeElement === last && first;
  if (wrapTo) {
    event.preventDefault();
    wrapTo.focus();
  }
}

/** Opens `dialog` as a modal, with focus on its first field; closing it gives focus back. */
export function openModal(dialog: HTMLDialogElement): void {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.showModal();
  const stops = tabStops(dialog);
  (stops.find((stop) => stop.matches("input, select, textarea")) ?? stops[0])?.focus();
  dialog.addEventListener("keydown", keepTabInside);
  dialog.addEventListener(
    "close",
    () => {
      dialog.removeEventListener("keydown", keepTabInside);
      opener?.focus();
    },
    { once: true },
  );
}
