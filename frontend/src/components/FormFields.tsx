import type { InputHTMLAttributes, SelectHTMLAttributes } from "react";

import { FieldError } from "./FormErrors";

interface Labelled {
  /** The control's id: the error summary links to it, and its message is `${id}-error`. */
  id: string;
  label: string;
  /** The server's (or the form's) message for the field, said under it. */
  error?: string;
}

/** How a control points at its message, for screen readers. */
function describedBy(id: string, error: string | undefined) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
}

/** A labelled input of an admin form, its message under it; `input` are the input's own props
 * (its value and change handler, the bounds the API gives it, its type). */
export function TextField({ id, label, error, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input id={id} className="input w-full" {...describedBy(id, error)} {...input} />
      <FieldError id={id} message={error} />
    </div>
  );
}

/** A labelled choice among `options` (value: what it is called), its message under it. */
export function SelectField({
  id,
  label,
  error,
  options,
  ...select
}: Labelled & { options: Record<string, string> } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select id={id} className="select w-full" {...describedBy(id, error)} {...select}>
        {Object.entries(options).map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
      <FieldError id={id} message={error} />
    </div>
  );
}

/** A ticked-or-not choice, its label beside it. */
export function CheckboxField({
  id,
  label,
  ...input
}: Omit<Labelled, "error"> & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex items-center gap-2">
      <input id={id} type="checkbox" className="checkbox checkbox-sm" {...input} />
      {label}
    </label>
  );
}
