import type { components } from "../api/schema";
import { ApiError, authorisedFetch } from "./api";
import { dialog, escape } from "./dialogs";
import { notify } from "./notify";

type SeriesInput = components["schemas"]["SeriesInputRequest"];
type SeriesPlan = components["schemas"]["SeriesPlanOutput"];
type Series = components["schemas"]["SeriesOutput"];

/**
 * Shows every date of the series, those that cannot be had with why, and asks whether to book the
 * others; answers the dates to leave out, or null when the person goes back.
 */
async function confirmPlan(
  plan: SeriesPlan,
  changed: string,
  target?: HTMLElement,
): Promise<string[] | null> {
  const refused = plan.dates.filter((one) => one.refusal);
  if (plan.bookable === 0) {
    await dialog.fire({
      target,
      icon: "error",
      title: "None of these dates can be had",
      html: listOf(plan),
      confirmButtonText: "Back",
    });
    return null;
  }
  const count = plan.bookable === 1 ? "1 date" : `${plan.bookable} dates`;
  const answer = await dialog.fire({
    target,
    icon: refused.length ? "warning" : "question",
    title: refused.length ? `Book the ${count} that can be had?` : `Book these ${count}?`,
    html: `${changed ? `<p class="mb-2">${escape(changed)}</p>` : ""}${listOf(plan)}
      <p class="mt-3 font-semibold">${count}, $${plan.total} in all. Each is a booking of its own.</p>`,
    showCancelButton: true,
    confirmButtonText: `Book ${count}`,
    cancelButtonText: "Back",
  });
  return answer.isConfirmed ? refused.map((one) => one.date) : null;
}

function listOf(plan: SeriesPlan): string {
  const items = plan.dates.map((one) =>
    one.refusal
      ? `<li data-refused><s>${escape(one.dateLabel)}</s>: ${escape(one.refusal)}</li>`
      : `<li>${escape(one.dateLabel)}: $${escape(one.price)}</li>`,
  );
  return `<ul class="text-left list-disc pl-5 max-h-64 overflow-y-auto" data-testid="series-plan">${items.join("")}</ul>`;
}

/**
 * Books a series (docs/rules.md, Series): its dates are listed first, with those that cannot be
 * had, for the person to confirm the rest; dates taken meanwhile are listed again. Answers the
 * series booked, or null when the person went back. `target`: the modal the dialogs open in, if any
 * (a modal <dialog> covers everything else on the page).
 */
export async function requestSeries(
  url: string,
  body: SeriesInput,
  target?: HTMLElement,
): Promise<Series | null> {
  let plan = await authorisedFetch<SeriesPlan>(`${url}?dryRun=1`, { method: "POST", body });
  let changed = "";
  for (;;) {
    const skipDates = await confirmPlan(plan, changed, target);
    if (skipDates === null) return null;
    try {
      const series = await authorisedFetch<Series>(url, { method: "POST", body: { ...body, skipDates } });
      const pending = series.occurrences.some((one) => one.status === "pending");
      notify.success(pending ? "Series requested: an admin approves each date." : "Series booked.");
      return series;
    } catch (error) {
      // Dates taken since the plan: the server lists the dates again.
      const again =
        error instanceof ApiError && error.status === 409 ? (error.body as SeriesPlan | null) : null;
      if (!(error instanceof ApiError) || !again?.dates) throw error;
      plan = again;
      changed = error.message;
    }
  }
}
