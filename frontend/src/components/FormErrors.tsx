import { type MouseEvent, useEffect, useRef } from "react";

/**
 * What one field of an API's input accepts, as the page hands it over (kernel.bounds.input_bounds):
 * named as an input's props, so that `<input {...bounds.price} />` says the server's bounds.
 */
export interface FieldBounds {
  required: boolean;
  min?: string;
  max?: string;
  step?: string;
  maxLength?: number;
}

/** Each field's bounds, by the field's name in the API. */
export type InputBounds = Record<string, FieldBounds>;

interface SummaryProps {
  /** The messages, by the field's name in the API (the names a 400 answers under). */
  errors: Partial<Record<string, string>>;
  /** The form's fields in their order on the form: the name, the label and the id of its input. */
  fields: { field: string; label: string; id: string }[];
}

/** Moves focus to the field with the id, as a keyboard user would land on it. */
function focusField(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(id);
  if (!target) return;
  event.preventDefault(); // a dialog's fields are not worth a history entry: focus is what moves
  target.focus();
}

/**
 * A refused form's problems at its top, as the server-rendered forms show them
 * (templates/includes/error_summary.html): how many, each linked to its field. It takes the focus
 * when the problems change, so that a screen reader reads them and the keyboard starts from them.
 */
export function ErrorSummary({ errors, fields }: SummaryProps) {
  const summary = useRef<HTMLDivElement>(null);
  const known = fields.filter(({ field }) => errors[field]);
  const others = Object.entries(errors).filter(
    ([field, message]) => message && !fields.some((known) => known.field === field),
  );
  const count = known.length + others.length;
  useEffect(() => {
    if (count) summary.current?.focus();
  }, [errors, count]);
  if (!count) return null;
  return (
    <div
      ref={summary}
      role="alert"
      tabIndex={-1}
      aria-labelledby="error-summary-title"
      className="alert alert-error alert-soft flex flex-col items-start gap-2 focus:outline-2 focus:outline-offset-2"
    >
      <h3 id="error-summary-title" className="font-bold">
        {count} problem{count === 1 ? "" : "s"}
      </h3>
      <ul className="list-disc pl-5">
        {known.map(({ field, label, id }) => (
          <li key={field}>
            <a className="link" href={`#${id}`} onClick={(event) => focusField(event, id)}>
              {label}: {errors[field]}
            </a>
          </li>
        ))}
        {others.map(([field, message]) => (
          <li key={field}>{message}</li>
        ))}
      </ul>
    </div>
  );
}

/** A field's message under it; the field points at it with aria-describedby (`${id}-error`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} className="text-sm text-error">
      {message}
    </p>
  );
}
