import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from "react";

interface Props<Row> {
  rows: Row[];
  /** The column headings; `actions`, if given, names a last column of buttons for screen readers. */
  columns: string[];
  actions?: string;
  /** Shown instead of the table when there are no rows. */
  empty: string;
  rowKey: (row: Row) => number | string;
  /** The row's cells (`<td>`s), after the row's number when `numbered`. */
  cells: (row: Row) => ReactNode;
  numbered?: boolean;
  /** The first row's number, on a later page of a paged list. */
  firstNumber?: number;
}

/**
 * Names each of a row's cells (`cells`: `<td>`s, in a fragment or not) by its column, in
 * `data-label`, which a phone shows beside the value when the rows become cards (dashboard.css,
 * `.stacked`). The cell after the last column (the actions) stays unnamed.
 */
function labelled(cells: ReactNode, labels: string[]): ReactNode {
  const single = isValidElement<{ children?: ReactNode }>(cells) && cells.type === Fragment;
  const list = Children.toArray(single ? cells.props.children : cells);
  return list.map((cell, index) =>
    isValidElement(cell) && index < labels.length
      ? cloneElement(cell as ReactElement<{ "data-label"?: string }>, { "data-label": labels[index] })
      : cell,
  );
}

/** The admin pages' table: rows become cards on a phone; says so when there is nothing to list. */
export function AdminTable<Row>({
  rows,
  columns,
  actions,
  empty,
  rowKey,
  cells,
  numbered = false,
  firstNumber = 1,
}: Props<Row>) {
  if (rows.length === 0) return <p className="text-base-content/70">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded-box bg-base-100 shadow-md">
      <table className="table stacked">
        <thead>
          <tr>
            {numbered && <th scope="col">#</th>}
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="sr-only">{actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row)}>
              {numbered && <td data-label="#">{firstNumber + index}</td>}
              {labelled(cells(row), columns)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface ActionProps {
  /** What the buttons act on, for their accessible names ("Edit Centre Court"). */
  name: string;
  onEdit?: () => void;
  onDelete: () => void;
  deleting?: boolean;
  /** Buttons of the row's own before Edit (a plan's "Take off sale"). */
  children?: ReactNode;
}

/** A row's Edit (when it can be edited) and Delete buttons, as the last cell. */
export function RowActions({ name, onEdit, onDelete, deleting = false, children }: ActionProps) {
  return (
    <td className="actions">
      {/* A flex box inside the cell: a flex cell would leave the table's row lines. */}
      <div className="flex gap-2">
        {children}
        {onEdit && (
          <button type="button" className="btn btn-sm" onClick={onEdit} aria-label={`Edit ${name}`}>
            Edit
          </button>
        )}
        <button
          type="button"
          className="btn btn-sm btn-error btn-outline"
          onClick={onDelete}
          disabled={deleting}
          aria-label={`Delete ${name}`}
        >
          {deleting ? "Deleting..." : "Delete"}
        </button>
      </div>
    </td>
  );
}
