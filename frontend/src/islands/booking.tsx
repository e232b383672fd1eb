import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";

import "../styles/booking.css";
import type { components } from "../api/schema";
import { ApiError, apiFetch, authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { ensureToastHost } from "../lib/toaster";

type Availability = components["schemas"]["Availability"];
type BookingRequestInput = components["schemas"]["BookingRequestInputRequest"];

/** A court as the booking modal's props give it (booking_modal_props in bookings/templatetags). */
interface Court {
  id: number;
  name: string;
  type: string;
  price: string;
  slots: string[];
  availabilityUrl: string;
}

interface Props {
  userEmail: string;
  minDate: string;
  maxDate: string;
  bookingsUrl: string;
  courts: Court[];
}

/**
 * The booking modal of /courts (docs/rules.md, Booking life cycle). Every 'Book Now' button of
 * the page (`data-book-court="<id>"`) opens it for its court. Taken slots come from the
 * availability endpoint and cannot be picked; the server checks everything again.
 */
function BookingModal({ userEmail, minDate, maxDate, bookingsUrl, courts }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [court, setCourt] = useState<Court | null>(null);
  const [date, setDate] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [taken, setTaken] = useState<string[]>([]);
  const [past, setPast] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  // Shown inside the modal as well as in a toast: a modal dialog sits above the toasts' layer.
  const [problem, setProblem] = useState("");

  const open = useCallback((next: Court) => {
    setCourt(next);
    setDate("");
    setChosen([]);
    setTaken([]);
    setPast([]);
    setProblem("");
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    ensureToastHost();
    function onClick(event: MouseEvent) {
      const button = (event.target as Element).closest<HTMLElement>("[data-book-court]");
      const next = courts.find((c) => String(c.id) === button?.dataset.bookCourt);
      if (next) open(next);
    }
    document.addEventListener("click", onClick);
    // The buttons come disabled, so a click before this island is ready is not lost silently.
    for (const button of document.querySelectorAll<HTMLButtonElement>("[data-book-court]")) button.disabled = false;
    return () => document.removeEventListener("click", onClick);
  }, [courts, open]);

  const loadAvailability = useCallback(async (forCourt: Court, day: string) => {
    const availability = await apiFetch<Availability>(`${forCourt.availabilityUrl}?date=${day}`);
    const unavailable = [...availability.taken, ...availability.past];
    setTaken(availability.taken);
    setPast(availability.past);
    setChosen((current) => current.filter((slot) => !unavailable.includes(slot)));
  }, []);

  useEffect(() => {
    if (court && date) {
      loadAvailability(court, date).catch(() => toast.error("Could not load the free slots for that date."));
    }
  }, [court, date, loadAvailability]);

  function close() {
    dialog.current?.close();
  }

  function toggle(slot: string) {
    setChosen((current) => (current.includes(slot) ? current.filter((s) => s !== slot) : [...current, slot]));
  }

  const total = court ? Number(court.price) * chosen.length : 0;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!court) return;
    if (chosen.length === 0) {
      setProblem("Please select at least one slot.");
      toast.error("Please select at least one slot.");
      return;
    }
    setProblem("");
    setSubmitting(true);
    try {
      await authorisedFetch(bookingsUrl, {
        method: "POST",
        body: {
          userEmail,
          courtId: court.id,
          courtName: court.name || court.type,
          price: total.toFixed(2),
          slots: chosen,
          date,
        } satisfies BookingRequestInput,
      });
      setChosen([]);
      setDate("");
      close();
      toast.success("Booking request sent.");
    } catch (error) {
      const reason = error instanceof ApiError ? ` ${error.message}` : "";
      setProblem(`Failed to submit booking.${reason}`);
      toast.error(`Failed to submit booking.${reason}`);
      if (error instanceof ApiError && error.status === 409) void loadAvailability(court, date);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <dialog ref={dialog} className="modal" aria-labelledby="booking-title" onClose={() => setCourt(null)}>
      {court && (
        <form className="modal-box flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
          <div className="flex items-center justify-between gap-4">
            <h2 id="booking-title" className="text-xl font-bold">
              Booking: {court.type}
            </h2>
            <button type="button" className="btn btn-sm btn-ghost" onClick={close}>
              Close
            </button>
          </div>
          <fieldset disabled={submitting} className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-4">
              <label className="flex flex-col gap-1">
                <span className="font-medium">Court type</span>
                <input className="input w-full" value={court.type} readOnly />
              </label>
              <label className="flex flex-col gap-1">
                <span className="font-medium">Price per slot ($)</span>
                <input className="input w-full" value={court.price} readOnly />
              </label>
            </div>
            <label className="flex flex-col gap-1">
              <span className="font-medium">Date</span>
              <input
                type="date"
                className="input w-full"
                required
                min={minDate}
                max={maxDate}
                value={date}
                onChange={(event) => setDate(event.target.value)}
              />
            </label>
            <fieldset className="flex flex-col gap-2">
              <legend className="font-medium mb-1">Slots</legend>
              {!date && <p className="text-sm text-base-content/70">Choose a date to see which slots are free.</p>}
              <div className="grid grid-cols-2 gap-2">
                {court.slots.map((slot) => {
                  // A slot already under way is past, whether or not it was booked.
                  const note = past.includes(slot) ? " (started)" : taken.includes(slot) ? " (booked)" : "";
                  return (
                    <label key={slot} className={`flex items-center gap-2 ${note ? "opacity-50" : ""}`}>
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        checked={chosen.includes(slot)}
                        disabled={!date || Boolean(note)}
                        onChange={() => toggle(slot)}
                      />
                      <span>
                        {slot}
                        {note}
                      </span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
            <p className="text-lg font-semibold" aria-live="polite">
              Total Price: ${total.toFixed(2)}
            </p>
            {problem && (
              <p role="alert" className="text-error">
                {problem}
              </p>
            )}
            <button type="submit" className="btn btn-primary">
              {submitting ? "Submitting..." : "Submit Booking"}
            </button>
          </fieldset>
        </form>
      )}
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close the booking form">
          close
        </button>
      </form>
    </dialog>
  );
}

mountIslands("booking", BookingModal);
