import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";

import type { components } from "../api/schema";
import { AdminTable, RowActions } from "../components/AdminTable";
import { ErrorSummary, FieldError, type InputBounds } from "../components/FormErrors";
import { authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { openModal } from "../lib/modal";
import { notify } from "../lib/notify";
import { useAdminList } from "../lib/useAdminList";

type Court = components["schemas"]["CourtAdminOutput"];
type CourtRemoved = components["schemas"]["CourtRemoved"];
type PriceBand = components["schemas"]["PriceBandInputRequest"];

interface Props {
  /** The courts open to booking, and the archived ones (kept for their bookings). */
  courts: Court[];
  archived: Court[];
  createUrl: string;
  /** The image shown instead of one that fails to load. */
  imagePlaceholder: string;
  /** What the court API accepts in each field, and in each field of a price band. */
  bounds: InputBounds;
  bandBounds: InputBounds;
}

/** What the delete question says will happen: the server archives a court that has bookings. */
const DELETE_TEXT = "You won't be able to revert this!";
const ARCHIVE_TEXT =
  "This court has bookings, so it will be archived, not deleted: it leaves /courts and can no longer be booked, but its bookings keep it. You can restore it from Archived.";

type Field = "name" | "type" | "price" | "image" | "slots" | "places";
/** A price band as its form row holds it: the price as typed. */
type BandDraft = Omit<PriceBand, "price"> & { price: string };
type Draft = Record<Field, string> & { priceBands: BandDraft[] };
const EMPTY: Draft = { name: "", type: "", price: "", image: "", slots: "", places: "4", priceBands: [] };
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
/** A new band: weekday evenings, for the admin to change. */
const NEW_BAND: BandDraft = {
  weekdays: [0, 1, 2, 3, 4],
  starts: "17:00",
  ends: "21:00",
  price: "",
  membersOnly: false,
};
const FIELDS: { field: Field; label: string; type: string; hint?: string }[] = [
  { field: "name", label: "Name", type: "text" },
  { field: "type", label: "Type", type: "text" },
  { field: "price", label: "Price", type: "number" },
  { field: "image", label: "Image URL", type: "text" },
  { field: "slots", label: "Slots", type: "textarea", hint: "One per line, like 08:00-09:00" },
  {
    field: "places",
    label: "Players",
    type: "number",
    hint: "Who plays at once, the booker included: 2 for singles, 4 for doubles",
  },
];
/** The fields the error summary links to, in the form's order: the peak times' group last. */
const SUMMARY_FIELDS = [
  ...FIELDS.map(({ field, label }) => ({ field, label, id: `court-${field}` })),
  { field: "priceBands", label: "Peak times", id: "court-priceBands" },
];

function draftOf(court: Court): Draft {
  return {
    name: court.name,
    type: court.type,
    price: court.price,
    image: court.image,
    slots: court.slots.join("\n"),
    places: String(court.places),
    priceBands: court.priceBands.map((band) => ({ ...band, weekdays: [...band.weekdays] })),
  };
}

/** Whether two drafts' bands say the same, so that an update leaves unchanged bands out. */
function sameBands(first: BandDraft[], second: BandDraft[]): boolean {
  return JSON.stringify(first) === JSON.stringify(second);
}

/** `value`, once it has stayed the same for `delay` ms: a preview loads the address typed, not each keystroke. */
function useSettled(value: string, delay = 400): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

interface ImageProps {
  src: string;
  alt: string;
  /** The text of the placeholder shown when `src` fails to load. */
  failedAlt: string;
  placeholder: string;
  className: string;
}

/** A court's image, or the placeholder when its address does not load (rather than the raw alt text). */
function CourtImage({ src, alt, failedAlt, placeholder, className }: ImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src;
  return (
    <img
      src={failed ? placeholder : src}
      alt={failed ? failedAlt : alt}
      width={640}
      height={400}
      className={className}
      onError={() => setFailedSrc(src)}
    />
  );
}

/**
 * Manage Courts (docs/staff-guide.md, Courts): the open courts' table, the add/update modal and
 * deletion, and the archived courts with Restore, through the court API.
 */
function CourtsAdmin({
  courts: initial,
  archived: initialArchived,
  createUrl,
  imagePlaceholder,
  bounds,
  bandBounds,
}: Props) {
  const list = useAdminList({ initial, createUrl, blank: EMPTY, formOf: draftOf });
  const { editing, form: draft, setForm: setDraft, errors, saving } = list;
  const [archived, setArchived] = useState(initialArchived);
  const [view, setView] = useState<"open" | "archived">("open");
  const [restoring, setRestoring] = useState<number | null>(null);
  const preview = useSettled(draft.image.trim());
  const dialog = useRef<HTMLDialogElement>(null);

  function open(court: Court | null) {
    list.edit(court);
    if (dialog.current) openModal(dialog.current);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const required = (["name", "type", "price", "image"] as Field[]).filter((field) => !draft[field].trim());
    if (required.length) {
      list.setErrors(Object.fromEntries(required.map((field) => [field, "This field is required."])));
      return;
    }
    const all = {
      name: draft.name.trim(),
      type: draft.type.trim(),
      price: draft.price,
      image: draft.image.trim(),
      slots: draft.slots
        .split(/[\n,]+/)
        .map((slot) => slot.trim())
        .filter(Boolean),
      places: draft.places,
    };
    // An update sends only what changed: a shipped image comes back as its hashed static URL,
    // which must not be written back in place of the plain path stored for it.
    const before = editing ? draftOf(editing) : null;
    const priceBands = draft.priceBands;
    const body = before
      ? {
          ...Object.fromEntries(
            Object.entries(all).filter(([field]) => draft[field as Field] !== before[field as Field]),
          ),
          ...(sameBands(priceBands, before.priceBands) ? {} : { priceBands }),
        }
      : { ...all, priceBands };
    if (await list.save(body, "Action failed")) {
      dialog.current?.close();
      notify.success(editing ? "Court updated" : "New court added");
    }
  }

  /** Changes band `index` of the form with `change`. */
  function changeBand(index: number, change: Partial<BandDraft>) {
    setDraft({
      ...draft,
      priceBands: draft.priceBands.map((band, at) => (at === index ? { ...band, ...change } : band)),
    });
  }

  function toggleDay(index: number, day: number) {
    const days = draft.priceBands[index]?.weekdays ?? [];
    changeBand(index, {
      weekdays: days.includes(day) ? days.filter((d) => d !== day) : [...days, day].sort((a, b) => a - b),
    });
  }

  async function remove(court: Court) {
    const removed = await list.remove<CourtRemoved>(
      court,
      court.hasBookings ? ARCHIVE_TEXT : DELETE_TEXT,
      "Delete failed",
    );
    if (!removed) return;
    // The server's answer, not the row's hasBookings, says what happened: a booking may have come since.
    if (removed.answer.deleted) notify.success("Court deleted");
    else {
      setArchived((current) => [...current, court]);
      notify.success("Court archived: its bookings keep it");
    }
  }

  async function restore(court: Court) {
    setRestoring(court.id);
    try {
      const restored = await authorisedFetch<Court>(court.restoreUrl, { method: "POST" });
      setArchived((current) => current.filter((other) => other.id !== court.id));
      list.include(restored);
      notify.success("Court restored");
    } catch (error) {
      notify.failure("Restore failed", error);
    } finally {
      setRestoring(null);
    }
  }

  /** The table of open or archived courts: the same columns, and `actions` as each row's last cell. */
  function courtTable(rows: Court[], empty: string, actions: (court: Court) => ReactNode) {
    return (
      <AdminTable
        rows={rows}
        columns={["Image", "Name", "Type", "Price ($)"]}
        actions="Actions"
        empty={empty}
        rowKey={(court) => court.id}
        cells={(court) => courtCells(court, actions(court))}
      />
    );
  }

  /** A court's row, open or archived alike but for its last cell, `actions`. */
  function courtCells(court: Court, actions: ReactNode) {
    return (
      <>
        <td>
          <CourtImage
            src={court.image}
            alt={`${court.name}, a ${court.type.toLowerCase()} court`}
            failedAlt={`${court.name}: image unavailable`}
            placeholder={imagePlaceholder}
            className="h-12 w-20 rounded object-cover"
          />
        </td>
        <td>{court.name}</td>
        <td>{court.type}</td>
        <td>{court.price}</td>
        {actions}
      </>
    );
  }

  const tab = (name: typeof view) => ({
    role: "tab",
    id: `courts-tab-${name}`,
    "aria-selected": view === name,
    "aria-controls": "courts-panel",
    className: `btn btn-sm join-item${view === name ? " btn-primary" : ""}`,
    onClick: () => setView(name),
  });

  return (
    <>
      <div role="tablist" aria-label="Courts" className="join mb-4">
        <button type="button" {...tab("open")}>
          Open
        </button>
        <button type="button" {...tab("archived")}>
          Archived
        </button>
      </div>
      <div role="tabpanel" id="courts-panel" aria-labelledby={`courts-tab-${view}`}>
        {view === "open" ? (
          <>
            <button type="button" className="btn btn-primary mb-4" onClick={() => open(null)}>
              Add Court
            </button>
            {courtTable(list.rows, "No courts yet. Add the first one.", (court) => (
              <RowActions name={court.name} onEdit={() => open(court)} onDelete={() => void remove(court)} />
            ))}
          </>
        ) : (
          <>
            <p className="mb-4 text-base-content/70">
              Courts deleted while they had bookings: hidden from /courts and from booking, kept for their
              bookings. Restore opens a court to booking again.
            </p>
            {courtTable(archived, "No archived courts.", (court) => (
              <td className="actions">
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => void restore(court)}
                  disabled={restoring === court.id}
                  aria-label={`Restore ${court.name}`}
                >
                  {restoring === court.id ? "Restoring..." : "Restore"}
                </button>
              </td>
            ))}
          </>
        )}
      </div>
      <dialog ref={dialog} className="modal" aria-labelledby="court-form-title">
        <form className="modal-box flex flex-col gap-3" onSubmit={(event) => void save(event)} noValidate>
          <h2 id="court-form-title" className="text-xl font-bold">
            {editing ? "Update Court" : "Add New Court"}
          </h2>
          <ErrorSummary errors={errors} fields={SUMMARY_FIELDS} />
          <fieldset disabled={saving} className="flex flex-col gap-3">
            {FIELDS.map(({ field, label, type, hint }) => {
              const id = `court-${field}`;
              const described = [hint && `${id}-hint`, errors[field] && `${id}-error`]
                .filter(Boolean)
                .join(" ");
              const common = {
                id,
                value: draft[field],
                ...bounds[field],
                "aria-invalid": errors[field] ? true : undefined,
                "aria-describedby": described || undefined,
              };
              return (
                <div key={field} className="flex flex-col gap-1">
                  <label htmlFor={id} className="font-medium">
                    {label}
                  </label>
                  {type === "textarea" ? (
                    <textarea
                      {...common}
                      rows={4}
                      className="textarea w-full"
                      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                    />
                  ) : (
                    <input
                      {...common}
                      type={type}
                      className="input w-full"
                      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                    />
                  )}
                  {hint && (
                    <p id={`${id}-hint`} className="text-sm text-base-content/70">
                      {hint}
                    </p>
                  )}
                  {field === "image" && preview && (
                    <CourtImage
                      src={preview}
                      alt="Preview of the image"
                      failedAlt="Preview: the image at this address does not load"
                      placeholder={imagePlaceholder}
                      className="aspect-[16/10] h-auto w-full max-w-60 rounded object-cover"
                    />
                  )}
                  <FieldError id={id} message={errors[field]} />
                </div>
              );
            })}
            {/* Groups rather than fieldsets: the form is one framed fieldset, which disables it while saving. */}
            <div
              id="court-priceBands"
              tabIndex={-1}
              role="group"
              className="flex flex-col gap-2"
              aria-labelledby="court-bands-label"
              aria-describedby={`court-bands-hint${errors.priceBands ? " court-priceBands-error" : ""}`}
            >
              <p id="court-bands-label" className="font-medium">
                Peak times
              </p>
              <p id="court-bands-hint" className="text-sm text-base-content/70">
                A slot starting from a band's time, up to but not including its end, on one of its days costs
                the band's price; any other slot costs the price above. Bands may not overlap. A members-only
                band's slots are booked only by the holders of a plan with the members-only hours, and admins.
              </p>
              {draft.priceBands.map((band, index) => (
                <div
                  key={index}
                  role="group"
                  aria-label={`Band ${index + 1}`}
                  className="flex flex-col gap-2 rounded-box border border-base-300 p-2"
                >
                  <div className="flex flex-wrap gap-x-3 gap-y-1">
                    {WEEKDAYS.map((name, day) => (
                      <label key={name} className="flex items-center gap-1 text-sm">
                        <input
                          type="checkbox"
                          className="checkbox checkbox-xs"
                          checked={band.weekdays.includes(day)}
                          onChange={() => toggleDay(index, day)}
                        />
                        {name}
                      </label>
                    ))}
                  </div>
                  <div className="flex flex-wrap items-end gap-2">
                    <label className="flex flex-col gap-1 text-sm">
                      From
                      <input
                        type="time"
                        className="input input-sm"
                        value={band.starts}
                        onChange={(e) => changeBand(index, { starts: e.target.value })}
                      />
                    </label>
                    <label className="flex flex-col gap-1 text-sm">
                      To
                      <input
                        type="time"
                        className="input input-sm"
                        value={band.ends}
                        onChange={(e) => changeBand(index, { ends: e.target.value })}
                      />
                    </label>
                    <label className="flex flex-col gap-1 text-sm">
                      Price ($)
                      <input
                        type="number"
                        {...bandBounds.price}
                        className="input input-sm w-28"
                        value={band.price}
                        onChange={(e) => changeBand(index, { price: e.target.value })}
                      />
                    </label>
                    <label className="flex items-center gap-1 text-sm min-h-8">
                      <input
                        type="checkbox"
                        className="checkbox checkbox-xs"
                        checked={Boolean(band.membersOnly)}
                        onChange={(e) => changeBand(index, { membersOnly: e.target.checked })}
                      />
                      Members only
                    </label>
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      aria-label={`Remove band ${index + 1}`}
                      onClick={() =>
                        setDraft({ ...draft, priceBands: draft.priceBands.filter((_, at) => at !== index) })
                      }
                    >
                      Remove
                    </button>
                  </div>
                </div>
              ))}
              <button
                type="button"
                className="btn btn-sm self-start"
                onClick={() => setDraft({ ...draft, priceBands: [...draft.priceBands, { ...NEW_BAND }] })}
              >
                New band
              </button>
              <FieldError id="court-priceBands" message={errors.priceBands} />
            </div>
            <div className="modal-action">
              <button type="button" className="btn" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
              <button type="submit" className="btn btn-primary">
                {editing ? "Update" : "Add"}
              </button>
            </div>
          </fieldset>
        </form>
      </dialog>
    </>
  );
}

mountIslands("courts-admin", CourtsAdmin);
