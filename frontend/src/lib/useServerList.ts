import { useEffect, useRef, useState } from "react";

import { authorisedSlice } from "./api";
import { notify } from "./notify";

/** How long typing must pause before a search goes to the server. */
const SEARCH_DELAY_MS = 250;

/** An admin list's first page as the page renders it (accounts/views.py), and where to ask for the others. */
export interface FirstPage<Row> {
  /** The first page's rows, and the whole list's size. */
  rows: Row[];
  total: number;
  pageSize: number;
  /** The API list (kernel/pagination.py): `?limit=&offset=` and the filters as query parameters. */
  url: string;
}

export interface ServerList<Row> {
  rows: Row[];
  total: number;
  pageSize: number;
  offset: number;
  filters: Record<string, string>;
  /** Sets one filter (empty: none), and goes back to the first page. */
  filter: (name: string, value: string) => void;
  goTo: (offset: number) => void;
  /** Asks for the current page again (after a row was removed, say). */
  reload: () => void;
}

/**
 * An admin list searched and paged on the server: the rows of the page shown, where it starts and
 * the whole list's size, and the filters. A change of filter waits for a pause in the typing and goes
 * back to the first page; an answer to an older question is dropped.
 */
export function useServerList<Row>(
  { rows, total, pageSize, url }: FirstPage<Row>,
  failure: string,
): ServerList<Row> {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [offset, setOffset] = useState(0); // the page asked for
  const [reloads, setReloads] = useState(0);
  const [page, setPage] = useState({ rows, total, offset: 0 }); // the page shown, until the next arrives
  const typing = useRef(false);
  const asked = useRef(false); // the first page came with the page itself

  useEffect(() => {
    if (!asked.current) {
      asked.current = true;
      return;
    }
    let current = true;
    const query = new URLSearchParams({ ...filters, limit: String(pageSize), offset: String(offset) });
    const timer = window.setTimeout(
      () => {
        authorisedSlice<Row>(`${url}?${query.toString()}`)
          .then((answer) => {
            if (!current) return;
            // A page emptied by a deletion (or by someone else's): the last page that has rows.
            if (answer.rows.length === 0 && offset > 0 && answer.total > 0) {
              setOffset(Math.floor((answer.total - 1) / pageSize) * pageSize);
            } else setPage({ ...answer, offset });
          })
          .catch((error: unknown) => current && notify.failure(failure, error));
      },
      typing.current ? SEARCH_DELAY_MS : 0,
    );
    typing.current = false;
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [url, filters, offset, pageSize, failure, reloads]);

  return {
    ...page,
    pageSize,
    filters,
    filter(name: string, value: string) {
      typing.current = true;
      setFilters((current) => ({ ...current, [name]: value }));
      setOffset(0);
    },
    goTo: setOffset,
    reload: () => setReloads((count) => count + 1),
  };
}
