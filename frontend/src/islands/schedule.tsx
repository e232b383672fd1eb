import { useEffect, useState } from "react";

import type { components } from "../api/schema";
import { authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

type BookingRequestInput = components["schemas"]["BookingRequestInputRequest"];

interface Court {
  id: number;
  name: string;
  price: string;
}

interface Props {
  date: string;
  bookingsUrl: string;
  courts: Court[];
}

interface Selection {
  court: Court;
  slots: string[];
}

/**
 * Booking from the day sheet (/schedule): each free cell of the server-rendered table is a toggle
 * button (`data-sheet-court`, `data-sheet-slot`, disabled until this island is ready). The cells
 * chosen belong to one court: choosing a cell of another court starts the choice afresh. The
 * request goes through the booking API like the modal's; the page then reloads to show the sheet
 * as it now is.
 */
function ScheduleBooking({ date, bookingsUrl, courts }: Props) {
  const [selection, setSelection] = useState<Selection | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    function onClick(event: MouseEvent) {
      const cell = (event.target as Element).closest<HTMLElement>("[data-sheet-slot]");
      const court = courts.find((c) => String(c.id) === cell?.dataset.sheetCourt);
      const slot = cell?.dataset.sheetSlot;
      if (!court || !slot) return;
      setSelection((current) => {
        const slots = current?.court.id === court.id ? current.slots : [];
        const next = slots.includes(slot) ? slots.filter((s) => s !== slot) : [...slots, slot].sort();
        return next.length ? { court, slots: next } : null;
      });
    }
    document.addEventListener("click", onClick);
    for (const cell of document.querySelectorAll<HTMLButtonElement>("[data-sheet-slot]"))
      cell.disabled = false;
    return () => document.removeEventListener("click", onClick);
  }, [courts]);

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
      await authorisedFetch(bookingsUrl, {
        method: "POST",
        body: { courtId: selection.court.id, slots: selection.slots, date } satisfies BookingRequestInput,
      });
      notify.success("Booking request sent.");
      window.location.reload();
    } catch (error) {
      notify.failure("Failed to submit booking.", error);
      setSubmitting(false);
    }
  }

  const total = selection ? Number(selection.court.price) * selection.slots.length : 0;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <p aria-live="polite">
        {selection
          ? `${selection.court.name}: ${selection.slots.join(", ")}. Total $${total.toFixed(2)}.`
          : "Choose free cells of one court to book them."}
      </p>
      {selection && (
        <>
          <button type="button" className="btn btn-primary" disabled={submitting} onClick={() => void book()}>
            {submitting ? "Booking..." : "Book"}
          </button>
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

mountIslands("schedule", ScheduleBooking);
