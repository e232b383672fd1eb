import { useState } from "react";

import { authorisedFetch } from "./api";
import { confirmDeletion, fieldErrors } from "./dialogs";
import { notify } from "./notify";
import type { ServerList } from "./useServerList";

/** A row of an admin list: the API answers each with its own URL, for updates and deletion. */
interface Row {
  id: number;
  url: string;
}

interface Options<R extends Row, Form> {
  /**
   * The rows: all of them, as the page was rendered, or a list paged on the server
   * (lib/useServerList.ts), which is asked again after each change.
   */
  initial: R[] | ServerList<R>;
  /** Where a new row is POSTed. */
  createUrl: string;
  /** The form of a new row, and the form of an existing one to edit. */
  blank: Form;
  formOf: (row: R) => Form;
  /** Whether a new row goes first (announcements, newest first) rather than last. */
  newestFirst?: boolean;
}

/**
 * The add / edit / delete list of an admin page: the rows, the row being edited (none: a new one),
 * its form and the form's errors, and the two API calls. Each failure is reported the islands'
 * way (lib/notify.tsx): the field messages of a refusal under the fields, the failure as a toast.
 */
export function useAdminList<R extends Row, Form>({
  initial,
  createUrl,
  blank,
  formOf,
  newestFirst,
}: Options<R, Form>) {
  const paged = Array.isArray(initial) ? null : initial;
  const [kept, setKept] = useState(Array.isArray(initial) ? initial : []);
  const [editing, setEditing] = useState<R | null>(null);
  const [form, setForm] = useState(blank);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [saving, setSaving] = useState(false);

  /** Starts editing `row`, or a new row for null, with a fresh form. */
  function edit(row: R | null) {
    setEditing(row);
    setForm(row ? formOf(row) : blank);
    setErrors({});
  }

  /** Creates or updates the row being edited with `body`: the saved row, or null when it failed. */
  async function save(body: unknown, failure: string): Promise<R | null> {
    setSaving(true);
    try {
      const saved = await authorisedFetch<R>(editing ? editing.url : createUrl, {
        method: editing ? "PATCH" : "POST",
        body,
      });
      if (paged && !editing && newestFirst && paged.offset > 0)
        paged.goTo(0); // where the new row is
      else if (paged) paged.reload();
      else
        setKept((current) => {
          if (editing) return current.map((row) => (row.id === saved.id ? saved : row));
          return newestFirst ? [saved, ...current] : [...current, saved];
        });
      edit(null);
      return saved;
    } catch (error) {
      setErrors(fieldErrors(error) as Partial<Record<keyof Form, string>>);
      notify.failure(failure, error);
      return null;
    } finally {
      setSaving(false);
    }
  }

  /** Lists `row`, made elsewhere (a court restored from the archived ones), where a new row goes. */
  function include(row: R) {
    if (paged) paged.reload();
    else setKept((current) => (newestFirst ? [row, ...current] : [...current, row]));
  }

  /** Shows `row` as changed outside the form (a plan put on or off sale). */
  function replace(row: R) {
    if (paged) paged.reload();
    else setKept((current) => current.map((other) => (other.id === row.id ? row : other)));
  }

  /**
   * Deletes `row` once the person confirms `question`: the API's answer (`{ answer }`, null for
   * none), or null when it was not deleted.
   */
  async function remove<Answer = null>(
    row: R,
    question: string,
    failure: string,
  ): Promise<{ answer: Answer } | null> {
    if (!(await confirmDeletion(question))) return null;
    let answer: Answer;
    try {
      answer = await authorisedFetch<Answer>(row.url, { method: "DELETE" });
    } catch (error) {
      notify.failure(failure, error);
      return null;
    }
    if (paged) paged.reload();
    else setKept((current) => current.filter((other) => other.id !== row.id));
    if (editing?.id === row.id) edit(null);
    return { answer };
  }

  return {
    rows: paged ? paged.rows : kept,
    editing,
    form,
    setForm,
    errors,
    setErrors,
    saving,
    edit,
    save,
    remove,
    include,
    replace,
  };
}
