import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";

import "../styles/booking.css";
import type { components } from "../api/schema";
import { ApiError, apiFetch } from "../lib/api";
import { requestBooking } from "../lib/bookingRequest";
import { requestSeries } from "../lib/seriesRequest";
import { mountIslands } from "../lib/islands";
import { openModal } from "../lib/modal";
import { notify } from "../lib/notify";
import { totalOf } from "../lib/prices";

type Availability = components["schemas"]["Availability"];

/** A court as the booking modal's props give it (bookings/views.py, court_list). */
interface Court {
  id: number;
  name: string;
  type: string;
  /** What the person pays for a slot at the court's own price: their plan's member price. */
  price: string;
  slots: string[];
  /** How many play on it at once, the person who books included. */
  places: number;
  availabilityUrl: string;
}

interface Props {
  userEmail: string;
  minDate: string;
  maxDate: string;
  bookingsUrl: string;
  /** Where a series is planned and booked (POST, `?dryRun=1` to plan). */
  seriesUrl: string;
  /** The latest last date of a series: the person's window; an admin's, a year on. */
  seriesMaxDate: string;
  /** The server's refusal of a request without slots (bookings.slots.NO_SLOTS_CHOSEN). */
  noSlotsMessage: string;
  /** The plan whose member prices the person pays, if any. */
  memberPlan: string | null;
  courts: Court[];
}

interface Pricing {
  date: string;
  prices: Availability["prices"];
  priceKinds: Availability["priceKinds"];
}
const NOT_PRICED: Pricing = { date: "", prices: {}, priceKinds: {} };

/**
 * A value of the court the person cannot change: greyed, so it is not mistaken for a field to
 * fill, and no tab stop.
 */
function ShownField({ label, value }: { label: string; value: string }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium">{label}</span>
      <input
        className="input w-full bg-base-200 text-base-content/80 cursor-default"
        value={value}
        readOnly
        tabIndex={-1}
      />
    </label>
  );
}

/**
 * The booking modal of /courts (docs/rules.md, Booking life cycle). Every 'Book Now' button of
 * the page (`data-book-court="<id>"`) opens it for its court. Taken slots come from the
 * availability endpoint and cannot be picked; the server checks everything again.
 */
function BookingModal({
  userEmail,
  minDate,
  maxDate,
  bookingsUrl,
  seriesUrl,
  seriesMaxDate,
  noSlotsMessage,
  memberPlan,
  courts,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [court, setCourt] = useState<Court | null>(null);
  const [date, setDate] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  // A series: the same slots every `everyWeeks` weeks until `lastDate` (empty: this date only).
  const [repeats, setRepeats] = useState(false);
  const [everyWeeks, setEveryWeeks] = useState(1);
  const [lastDate, setLastDate] = useState("");
  const [taken, setTaken] = useState<string[]>([]);
  const [past, setPast] = useState<string[]>([]);
  // The slots a members-only band keeps for plans the person does not hold.
  const [membersOnly, setMembersOnly] = useState<string[]>([]);
  // Each slot's price on a day, as the server charges it (the availability's answer).
  const [pricing, setPricing] = useState<Pricing>(NOT_PRICED);
  // Bumped to ask for the free slots again (after a refusal because one was taken meanwhile).
  const [availabilityAsked, setAvailabilityAsked] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  // Why the request was not sent or was refused, said above Submit until the choice changes.
  const [refusal, setRefusal] = useState("");

  const open = useCallback((next: Court) => {
    setCourt(next);
    setDate("");
    setChosen([]);
    setRepeats(false);
    setEveryWeeks(1);
    setLastDate("");
    setTaken([]);
    setPast([]);
    setMembersOnly([]);
    setPricing(NOT_PRICED);
    setRefusal("");
  }, []);

  // The modal opens once its form for the court is drawn, so that focus goes to its first field.
  useEffect(() => {
    if (court && dialog.current && !dialog.current.open) openModal(dialog.current);
  }, [court]);

  useEffect(() => {
    function onClick(event: MouseEvent) {
      const button = (event.target as Element).closest<HTMLElement>("[data-book-court]");
      const next = courts.find((c) => String(c.id) === button?.dataset.bookCourt);
      if (next) open(next);
    }
    document.addEventListener("click", onClick);
    // The buttons come disabled, so a click before this island is ready is not lost silently.
    for (const button of document.querySelectorAll<HTMLButtonElement>("[data-book-court]"))
      button.disabled = false;
    return () => document.removeEventListener("click", onClick);
  }, [courts, open]);

  // The free slots of the chosen day and their prices; an answer for a day no longer chosen is dropped.
  useEffect(() => {
    if (!court || !date) return;
    let current = true;
    apiFetch<Availability>(`${court.availabilityUrl}?date=${date}`)
      .then((availability) => {
        if (!current) return;
        const unavailable = [...availability.taken, ...availability.past, ...availability.membersOnly];
        setTaken(availability.taken);
        setPast(availability.past);
        setMembersOnly(availability.membersOnly);
        setPricing({ date, prices: availability.prices, priceKinds: availability.priceKinds });
        setChosen((chosenSlots) => chosenSlots.filter((slot) => !unavailable.includes(slot)));
      })
      .catch(
        (error: unknown) => current && notify.failure("Could not load the free slots for that date.", error),
      );
    return () => {
      current = false;
    };
  }, [court, date, availabilityAsked]);

  function close() {
    dialog.current?.close();
  }

  function toggle(slot: string) {
    setRefusal(""); // a slot ticked or unticked answers the request for one
    setChosen((current) => (current.includes(slot) ? current.filter((s) => s !== slot) : [...current, slot]));
  }

  // The chosen day's prices: none until the server has answered for that day.
  const priced = pricing.date === date && date !== "";
  const { prices, priceKinds } = priced ? pricing : NOT_PRICED;
  const total = court ? totalOf(chosen.map((slot) => prices[slot] ?? court.price)) : "0.00";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!court) return;
    if (chosen.length === 0) {
      setRefusal(noSlotsMessage);
      notify.failure(noSlotsMessage, undefined, { alsoOnThePage: true });
      return;
    }
    setRefusal("");
    setSubmitting(true);
    try {
      if (repeats) {
        const series = await requestSeries(
          seriesUrl,
          {
            courtId: court.id,
            slots: chosen,
            firstDate: date,
            everyWeeks,
            lastDate,
          },
          dialog.current ?? undefined,
        );
        if (series?.url) window.location.assign(series.url);
        return;
      }
      const stays = await requestBooking(bookingsUrl, {
        userEmail,
        courtId: court.id,
        price: total,
        slots: chosen,
        date,
      });
      if (!stays) return;
      setChosen([]);
      setDate("");
      close();
    } catch (error) {
      setRefusal(notify.failure("Failed to submit booking.", error, { alsoOnThePage: true }));
      if (error instanceof ApiError && error.status === 409) setAvailabilityAsked((asked) => asked + 1);
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
              Booking: {court.name} ({court.type})
            </h2>
            <button type="button" className="btn btn-sm btn-ghost" onClick={close}>
              Close
            </button>
          </div>
          <fieldset disabled={submitting} className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-4">
              <ShownField label="Court type" value={court.type} />
              <ShownField
                label={memberPlan ? "Your price per slot ($)" : "Price per slot ($)"}
                value={court.price}
              />
            </div>
            {memberPlan && (
              <p className="text-sm text-base-content/70">{`The member prices of your ${memberPlan} plan.`}</p>
            )}
            <p className="text-sm text-base-content/70" data-testid="booking-places">
              {`Up to ${court.places} players, you included: once it is made, choose who plays on its page (My Bookings).`}
            </p>
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
              {!date && (
                <p className="text-sm text-base-content/70">Choose a date to see which slots are free.</p>
              )}
              {Object.keys(priceKinds).length > 0 && (
                <p className="text-sm text-base-content/70">
                  A slot priced otherwise that day shows its price.
                </p>
              )}
              <div className="grid grid-cols-2 gap-2">
                {court.slots.map((slot) => {
                  // A slot already under way is past, whether or not it was booked.
                  const note = past.includes(slot)
                    ? " (started)"
                    : membersOnly.includes(slot)
                      ? " (members only)"
                      : taken.includes(slot)
                        ? " (booked)"
                        : "";
                  // A price other than the court's own, and its name (peak or off-peak), as the server gives them.
                  const kind = priceKinds[slot];
                  return (
                    <label key={slot} className={`flex items-center gap-2 ${note ? "opacity-50" : ""}`}>
                      <input
                        type="checkbox"
                        className="checkbox checkbox-sm"
                        checked={chosen.includes(slot)}
                        disabled={!priced || Boolean(note)}
                        onChange={() => toggle(slot)}
                      />
                      <span>
                        {slot}
                        {note}
                        {kind && (
                          <span className="text-sm text-base-content/70" data-peak-price>
                            {` $${prices[slot]}`}
                            <span className="sr-only">{` ${kind} price`}</span>
                          </span>
                        )}
                      </span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
            <fieldset className="flex flex-col gap-2">
              <legend className="sr-only">Repeat</legend>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={repeats}
                  onChange={(event) => setRepeats(event.target.checked)}
                />
                <span className="font-medium">Repeat these slots</span>
              </label>
              {repeats && (
                <div className="grid grid-cols-2 gap-4">
                  <label className="flex flex-col gap-1">
                    <span className="font-medium">Every</span>
                    <select
                      className="select w-full"
                      value={everyWeeks}
                      onChange={(event) => setEveryWeeks(Number(event.target.value))}
                    >
                      {[1, 2, 3, 4].map((weeks) => (
                        <option key={weeks} value={weeks}>
                          {weeks === 1 ? "week" : `${weeks} weeks`}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="flex flex-col gap-1">
                    <span className="font-medium">Until</span>
                    <input
                      type="date"
                      className="input w-full"
                      required
                      min={date || minDate}
                      max={seriesMaxDate}
                      value={lastDate}
                      onChange={(event) => setLastDate(event.target.value)}
                    />
                  </label>
                  <p className="col-span-2 text-sm text-base-content/70">
                    Each date is a booking of its own: you see which dates are taken before anything is
                    booked.
                  </p>
                </div>
              )}
            </fieldset>
            <p className="text-lg font-semibold" aria-live="polite">
              {repeats ? `Price per date: $${total}` : `Total Price: $${total}`}
            </p>
            {refusal && (
              <p role="alert" className="text-error">
                {refusal}
              </p>
            )}
            <button type="submit" className="btn btn-primary">
              {submitting ? "Submitting..." : repeats ? "See the dates" : "Submit Booking"}
            </button>
          </fieldset>
        </form>
      )}
      {/* A click beside the modal closes it; by keyboard, Esc or its Close button do. */}
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label="Close the booking form" tabIndex={-1}>
          close
        </button>
      </form>
    </dialog>
  );
}

mountIslands("booking", BookingModal);
