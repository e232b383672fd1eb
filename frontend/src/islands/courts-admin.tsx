import { type FormEvent, useRef } from "react";

import type { components } from "../api/schema";
import { AdminTable, RowActions } from "../components/AdminTable";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";
import { useAdminList } from "../lib/useAdminList";

type Court = components["schemas"]["CourtOutput"];
type CourtRemoved = components["schemas"]["CourtRemoved"];

interface Props {
  courts: Court[];
  createUrl: string;
}

type Field = "name" | "type" | "price" | "image" | "slots";
type Draft = Record<Field, string>;
const EMPTY: Draft = { name: "", type: "", price: "", image: "", slots: "" };
const FIELDS: { field: Field; label: string; type: string; hint?: string }[] = [
  { field: "name", label: "Name", type: "text" },
  { field: "type", label: "Type", type: "text" },
  { field: "price", label: "Price", type: "number" },
  { field: "image", label: "Image URL", type: "text" },
  { field: "slots", label: "Slots", type: "textarea", hint: "One per line, like 08:00-09:00" },
];

function draftOf(court: Court): Draft {
  return {
    name: court.name,
    type: court.type,
    price: court.price,
    image: court.image,
    slots: court.slots.join("\n"),
  };
}

/** Manage Courts (docs/staff-guide.md, Courts): the table, the add/update modal and deletion, through the court API. */
function CourtsAdmin({ courts: initial, createUrl }: Props) {
  const list = useAdminList({ initial, createUrl, blank: EMPTY, formOf: draftOf });
  const { editing, form: draft, setForm: setDraft, errors, saving } = list;
  const dialog = useRef<HTMLDialogElement>(null);

  function open(court: Court | null) {
    list.edit(court);
    dialog.current?.showModal();
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
    };
    // An update sends only what changed: a shipped image comes back as its hashed static URL,
    // which must not be written back in place of the plain path stored for it.
    const before = editing ? draftOf(editing) : null;
    const body = before
      ? Object.fromEntries(
          Object.entries(all).filter(([field]) => draft[field as Field] !== before[field as Field]),
        )
      : all;
    if (await list.save(body, "Action failed")) {
      dialog.current?.close();
      notify.success(editing ? "Court updated" : "New court added");
    }
  }

  async function remove(court: Court) {
    const removed = await list.remove<CourtRemoved>(
      court,
      "You won't be able to revert this!",
      "Delete failed",
    );
    // A court with bookings is archived: hidden everywhere, but kept for its bookings.
    if (removed)
      notify.success(
        removed.answer.deleted ? "Court deleted" : "Court deleted (archived: its bookings keep it)",
      );
  }

  return (
    <>
      <button type="button" className="btn btn-primary mb-4" onClick={() => open(null)}>
        Add Court
      </button>
      <AdminTable
        rows={list.rows}
        columns={["Image", "Name", "Type", "Price ($)"]}
        actions="Actions"
        empty="No courts yet. Add the first one."
        rowKey={(court) => court.id}
        cells={(court) => (
          <>
            <td>
              <img
                src={court.image}
                alt={`${court.name}, a ${court.type.toLowerCase()} court`}
                className="h-12 w-20 rounded object-cover"
              />
            </td>
            <td>{court.name}</td>
            <td>{court.type}</td>
            <td>{court.price}</td>
            <RowActions name={court.name} onEdit={() => open(court)} onDelete={() => void remove(court)} />
          </>
        )}
      />
      <dialog ref={dialog} className="modal" aria-labelledby="court-form-title">
        <form className="modal-box flex flex-col gap-3" onSubmit={(event) => void save(event)} noValidate>
          <h2 id="court-form-title" className="text-xl font-bold">
            {editing ? "Update Court" : "Add New Court"}
          </h2>
          <fieldset disabled={saving} className="flex flex-col gap-3">
            {FIELDS.map(({ field, label, type, hint }) => {
              const id = `court-${field}`;
              const described = [hint && `${id}-hint`, errors[field] && `${id}-error`]
                .filter(Boolean)
                .join(" ");
              const common = {
                id,
                value: draft[field],
                required: field !== "slots",
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
                      step={type === "number" ? "0.01" : undefined}
                      min={type === "number" ? "0.01" : undefined}
                      className="input w-full"
                      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
                    />
                  )}
                  {hint && (
                    <p id={`${id}-hint`} className="text-sm text-base-content/70">
                      {hint}
                    </p>
                  )}
                  {errors[field] && (
                    <p id={`${id}-error`} className="text-sm text-error">
                      {errors[field]}
                    </p>
                  )}
                </div>
              );
            })}
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
