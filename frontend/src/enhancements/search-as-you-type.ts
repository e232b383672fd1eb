/**
 * A server-rendered list's filter form (`form[data-search-as-you-type]`) searches as the admin
 * types, like the lists that are islands: the form is sent 300 ms after typing pauses, and at once
 * when a choice or a date changes. The page then reloads with the results, so the URL's fragment
 * names the field being used and the new page puts the focus and the caret back in it. Without
 * JavaScript the form's Search button does the same.
 */
const PAUSE_MS = 300;

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-search-as-you-type]")) {
  const fieldFromFragment = decodeURIComponent(window.location.hash.slice(1));
  const returning = fieldFromFragment ? form.elements.namedItem(fieldFromFragment) : null;
  if (returning instanceof HTMLInputElement) {
    returning.focus();
    if (returning.type === "search" || returning.type === "text") {
      returning.setSelectionRange(returning.value.length, returning.value.length);
    }
  }

  let timer: number | undefined;
  const send = (field: HTMLInputElement | HTMLSelectElement) => {
    window.clearTimeout(timer);
    const url = new URL(form.action || window.location.href);
    url.hash = field.name;
    form.action = url.toString();
    form.requestSubmit();
  };

  form.addEventListener("input", (event) => {
    const field = event.target;
    if (field instanceof HTMLInputElement && (field.type === "search" || field.type === "text")) {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => send(field), PAUSE_MS);
    }
  });
  form.addEventListener("change", (event) => {
    const field = event.target;
    if (field instanceof HTMLSelectElement || (field instanceof HTMLInputElement && field.type === "date")) {
      send(field);
    }
  });
}
