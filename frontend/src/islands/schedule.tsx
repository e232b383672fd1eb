import { useEffect, useState } from "react";

import type { components } from "../api/schema";
import { ApiError, authorisedFetch } from "../lib/api";
import { type BookingAction, CANCELLED_BY_ADMIN, actOnBooking } from "../lib/bookingActions";
import { requestBooking } from "../lib/bookingRequest";
import { requestSeries } from "../lib/seriesRequest";
import { confirmThenCall, dialog, escape, warningDialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";
import { SlotRanges } from "../components/SlotRanges";
import { totalOf } from "../lib/prices";
import { leaveWaitlist } from "../lib/waitlist";
import { slotsLabel } from "../lib/slots";

interface Court {
  id: number;
  /** What the club calls the court (courts.models.Court.label). */
  label: string;
  price: string;
  /** The slots whose price on the sheet's day is a price band's, not `price`, with that price. */
  peak: Record<string, string>;
}

interface Props {
  date: string;
  /** The day as the club writes it (club_time.day). */
  dateLabel: string;
  bookingsUrl: string;
  /** Where a series of the chosen cells is planned and booked. */
  seriesUrl: string;
  waitlistUrl: string;
  /** The call on one's place in a line, to be followed by its id. */
  waitlistEntryUrl: string;
  courts: Court[];
  isAdmin: boolean;
  /** The calls on one booking, each to be followed by the booking's id. */
  bookingUrls: Record<"approve" | "reject" | "cancel", string>;
  blocksUrl: string;
  /** The call on one block, to be followed by its id. */
  blockUrl: string;
}

interface Selection {
  court: Court;
  slots: string[];
}

type Conflict = components["schemas"]["BlockConflictOutput"];

/** The sheet's own buttons (data-sheet-*), disabled in the HTML until this island listens. */
const BUTTONS =
  "[data-sheet-slot], [data-sheet-act], [data-sheet-unblock], [data-sheet-join-court], [data-sheet-leave]";

/**
 * The day sheet's actions (/schedule), on the server-rendered table's buttons: each free cell is a
 * toggle (`data-sheet-court`, `data-sheet-slot`); the cells chosen belong to one court (choosing a
 * cell of another court starts afresh) and are booked through the booking API like the modal's,
 * or, by an admin, blocked; once a cell is chosen, the choice, its total and its buttons stay at the
 * foot of the screen while more are chosen. A taken cell joins its waitlist, and a place in one is
 * left; an admin approves, rejects or cancels a booking from its cell and lifts a block. The page
 * then reloads to show the sheet as it is.
 */
function ScheduleActions(props: Props) {
  const {
    date,
    dateLabel,
    bookingsUrl,
    seriesUrl,
    waitlistUrl,
    waitlistEntryUrl,
    courts,
    isAdmin,
    bookingUrls,
    blocksUrl,
    blockUrl,
  } = props;
  const [selection, setSelection] = useState<Selection | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    function onClick(event: MouseEvent) {
      const button = (event.target as Element).closest<HTMLElement>(BUTTONS);
      if (!button) return;
      const {
        sheetSlot,
        sheetCourt,
        sheetAct,
        booking,
        sheetUnblock,
        sheetJoinCourt,
        sheetJoinSlot,
        sheetLeave,
      } = button.dataset;
      if (sheetAct && booking) void act(sheetAct as BookingAction, booking);
      else if (sheetUnblock) void unblock(sheetUnblock);
      else if (sheetJoinCourt && sheetJoinSlot) void join(Number(sheetJoinCourt), sheetJoinSlot);
      else if (sheetLeave) void leave(sheetLeave);
      else if (sheetSlot)
        toggle(
          courts.find((c) => String(c.id) === sheetCourt),
          sheetSlot,
        );
    }

    function toggle(court: Court | undefined, slot: string) {
      if (!court) return;
      setSelection((current) => {
        const slots = current?.court.id === court.id ? current.slots : [];
        const next = slots.includes(slot) ? slots.filter((s) => s !== slot) : [...slots, slot].sort();
        return next.length ? { court, slots: next } : null;
      });
    }

    async function act(action: BookingAction, id: string) {
      const call = action === "approve" || action === "reject" ? bookingUrls[action] : bookingUrls.cancel;
      const refund = "Its owner gets all they paid back on their card, and an e-mail.";
      // The sheet's buttons are an admin's, on anyone's booking: "Your booking" is the owner's word.
      const done = action === "cancel-approved" ? CANCELLED_BY_ADMIN : undefined;
      if (await actOnBooking(action, call + id, refund, done)) window.location.reload();
    }

    async function unblock(id: string) {
      const lifted = await confirmThenCall(
        {
          title: "Unblock?",
          text: "Every day of this block is open for booking again.",
          confirmButtonText: "Yes, unblock",
          cancelButtonText: "No, keep it",
        },
        () => authorisedFetch(blockUrl + id, { method: "DELETE" }),
        "The block was not lifted.",
      );
      if (lifted) window.location.reload();
    }

    async function join(courtId: number, slot: string) {
      try {
        await authorisedFetch(waitlistUrl, { method: "POST", body: { courtId, date, slot } });
      } catch (error) {
        notify.failure("You were not added to the waitlist.", error);
        return;
      }
      await dialog.fire({
        title: "You are on the waitlist",
        text: "If the slot frees, it is held for the first in line and they get an e-mail. My Waitlist shows your place.",
        icon: "success",
      });
      window.location.reload();
    }

    async function leave(id: string) {
      if (await leaveWaitlist(waitlistEntryUrl + id, false)) window.location.reload();
    }

    document.addEventListener("click", onClick);
    for (const button of document.querySelectorAll<HTMLButtonElement>(BUTTONS)) button.disabled = false;
    return () => document.removeEventListener("click", onClick);
  }, [courts, date, waitlistUrl, waitlistEntryUrl, bookingUrls, blockUrl]);

  // The table's toggles show the choice: pressed or not.
  useEffect(() => {
    for (const cell of document.querySelectorAll<HTMLButtonElement>("[data-sheet-slot]")) {
      const chosen =
        cell.dataset.sheetCourt === String(selection?.court.id) &&
        Boolean(selection?.slots.includes(cell.dataset.sheetSlot ?? ""));
      cell.setAttribute("aria-pressed", String(chosen));
    }
  }, [selection]);

  async function book() {
    if (!selection) return;
    setSubmitting(true);
    try {
      if (await requestBooking(bookingsUrl, { courtId: selection.court.id, slots: selection.slots, date })) {
        window.location.reload();
      }
    } catch (error) {
      notify.failure("Failed to submit booking.", error);
      setSubmitting(false);
    }
  }

  /** Books the chosen cells every week or few weeks until a date, its dates listed first. */
  async function bookSeries() {
    if (!selection) return;
    const form = await dialog.fire<{ everyWeeks: number; lastDate: string }>({
      titleText: `Repeat ${selection.court.label}`,
      html: `<p class="mb-3">${escape(`${slotsLabel(selection.slots)} from ${dateLabel}`)}</p>
        <label class="block text-left font-medium" for="series-every">Every</label>
        <select id="series-every" class="select w-full mb-3">
          <option value="1">week</option><option value="2">2 weeks</option>
          <option value="3">3 weeks</option><option value="4">4 weeks</option>
        </select>
        <label class="block text-left font-medium" for="series-until">Until</label>
        <input id="series-until" class="input w-full" type="date" min="${date}" required>`,
      showCancelButton: true,
      confirmButtonText: "See the dates",
      focusConfirm: false,
      preConfirm: () => {
        const everyWeeks = Number(document.querySelector<HTMLSelectElement>("#series-every")?.value ?? 1);
        const lastDate = document.querySelector<HTMLInputElement>("#series-until")?.value ?? "";
        if (!lastDate) {
          dialog.showValidationMessage("Choose the last date of the series.");
          return false;
        }
        return { everyWeeks, lastDate };
      },
    });
    if (!form.isConfirmed || !form.value) return;
    setSubmitting(true);
    try {
      const series = await requestSeries(seriesUrl, {
        courtId: selection.court.id,
        slots: selection.slots,
        firstDate: date,
        ...form.value,
      });
      if (series?.url) window.location.assign(series.url);
      else setSubmitting(false);
    } catch (error) {
      notify.failure("The series was not booked.", error);
      setSubmitting(false);
    }
  }

  async function block() {
    if (!selection) return;
    const form = await dialog.fire<{ reason: string; until: string }>({
      titleText: `Block ${selection.court.label}`,
      html: `<p class="mb-3">${escape(`${slotsLabel(selection.slots)} on ${dateLabel}`)}</p>
        <label class="block text-left font-medium" for="block-reason">Reason (shown in the schedule)</label>
        <input id="block-reason" class="input w-full mb-3" maxlength="200" required>
        <label class="block text-left font-medium" for="block-until">Weekly until (optional: leave empty for this day only)</label>
        <input id="block-until" class="input w-full" type="date" min="${date}">`,
      showCancelButton: true,
      confirmButtonText: "Block",
      focusConfirm: false,
      preConfirm: () => {
        const reason = document.querySelector<HTMLInputElement>("#block-reason")?.value.trim() ?? "";
        const until = document.querySelector<HTMLInputElement>("#block-until")?.value ?? "";
        if (!reason) {
          dialog.showValidationMessage("Say why the court is closed: people see it in the schedule.");
          return false;
        }
        return { reason, until };
      },
    });
    if (!form.isConfirmed || !form.value) return;
    await sendBlock(selection, form.value.reason, form.value.until, "refuse");
  }

  /** Blocks the cells; bookings in the way are listed first, for the admin to cancel or leave out. */
  async function sendBlock(chosen: Selection, reason: string, until: string, conflicts: string) {
    setSubmitting(true);
    try {
      await authorisedFetch(blocksUrl, {
        method: "POST",
        body: {
          courtId: chosen.court.id,
          date,
          until: until || null,
          slots: chosen.slots,
          reason,
          conflicts,
        },
      });
      window.location.reload();
      return;
    } catch (error) {
      setSubmitting(false);
      const listed = error instanceof ApiError ? (error.body as { conflicts?: Conflict[] } | null) : null;
      if (!listed?.conflicts?.length) {
        notify.failure("The slots were not blocked.", error);
        return;
      }
      const lines = listed.conflicts.map(
        (c) => `${c.userEmail}: ${c.dateLabel}, ${slotsLabel(c.slots)} (${c.status})`,
      );
      const answer = await warningDialog.fire({
        title: "Bookings in the way",
        html: `<ul class="text-left list-disc pl-5">${lines.map((line) => `<li>${escape(line)}</li>`).join("")}</ul>`,
        showDenyButton: true,
        showCancelButton: true,
        confirmButtonText: "Cancel them (full refunds)",
        denyButtonText: "Leave those slots out",
        cancelButtonText: "Back",
        customClass: { confirmButton: "btn btn-error", denyButton: "btn", cancelButton: "btn btn-ghost" },
      });
      if (answer.isConfirmed) await sendBlock(chosen, reason, until, "cancel");
      else if (answer.isDenied) await sendBlock(chosen, reason, until, "skip");
    }
  }

  const total = selection
    ? totalOf(selection.slots.map((slot) => selection.court.peak[slot] ?? selection.court.price))
    : "0.00";
  // Once a cell is chosen, the bar sticks to the foot of the screen, over the table, until the page
  // is scrolled to its own place below the table (day-sheet.css lets it stick in the whole section).
  return (
    <div
      data-sheet-bar={selection ? "sticky" : undefined}
      className={`mt-4 flex flex-wrap items-center gap-3 ${
        selection
          ? "sticky bottom-0 z-20 -mx-5 border-t border-base-300 bg-base-100 px-5 py-3 shadow-lg lg:-mx-8 lg:px-8"
          : ""
      }`}
    >
      <p aria-live="polite" className="w-full sm:w-auto">
        {selection ? (
          <>
            {selection.court.label}: <SlotRanges slots={selection.slots} />. Total ${total}.
          </>
        ) : (
          `Choose free cells of one court to book${isAdmin ? " or block" : ""} them.`
        )}
      </p>
      {selection && (
        <>
          <button type="button" className="btn btn-primary" disabled={submitting} onClick={() => void book()}>
            {submitting ? "Working..." : "Book"}
          </button>
          <button type="button" className="btn" disabled={submitting} onClick={() => void bookSeries()}>
            Repeat…
          </button>
          {isAdmin && (
            <button type="button" className="btn" disabled={submitting} onClick={() => void block()}>
              Block
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost"
            disabled={submitting}
            onClick={() => setSelection(null)}
          >
            Clear
          </button>
        </>
      )}
    </div>
  );
}

mountIslands("schedule", ScheduleActions);
