interface Props {
  id: string;
  /** The field's name for screen readers (the placeholder says it to everyone else). */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** The search field above an admin list of people: by name or e-mail. */
export function SearchBox({ id, label, value, onChange }: Props) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input w-full max-w-md"
        placeholder="Search by name or email..."
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
}
