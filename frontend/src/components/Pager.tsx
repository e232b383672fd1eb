interface Props {
  offset: number;
  total: number;
  pageSize: number;
  /** What the list counts ("users"), for "26–50 of 5,000 users". */
  noun: string;
  onChange: (offset: number) => void;
}

const count = new Intl.NumberFormat();

/** Where a server-paged list is ("26–50 of 5,000 users"), with Prev and Next. */
export function Pager({ offset, total, pageSize, noun, onChange }: Props) {
  if (total === 0) return null;
  const last = Math.min(offset + pageSize, total);
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-4">
      <p className="text-sm text-base-content/70" aria-live="polite">
        {offset + 1}–{last} of {count.format(total)} {noun}
      </p>
      {total > pageSize && (
        <div className="join">
          <button
            type="button"
            className="join-item btn"
            disabled={offset === 0}
            onClick={() => onChange(Math.max(offset - pageSize, 0))}
          >
            Prev
          </button>
          <button
            type="button"
            className="join-item btn"
            disabled={last >= total}
            onClick={() => onChange(offset + pageSize)}
          >
            Next
          </button>
        </div>
      )}
    </nav>
  );
}
