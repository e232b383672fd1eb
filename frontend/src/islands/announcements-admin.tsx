import { type FormEvent, useState } from "react";
import Swal from "sweetalert2";

import type { components } from "../api/schema";
import { ApiError, authorisedFetch } from "../lib/api";
import { confirmDeletion } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";

type Announcement = components["schemas"]["AnnouncementOutput"];
type AnnouncementInput = components["schemas"]["AnnouncementInputRequest"];

interface Props {
  announcements: Announcement[];
  createUrl: string;
}

const longDate = new Intl.DateTimeFormat(undefined, { dateStyle: "long", timeStyle: "short" });

/** Make Announcements (docs/staff-guide.md, Announcements): write, edit and delete the club's announcements. */
function AnnouncementsAdmin({ announcements: initial, createUrl }: Props) {
  const [announcements, setAnnouncements] = useState(initial);
  const [editing, setEditing] = useState<Announcement | null>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);

  function edit(announcement: Announcement | null) {
    setEditing(announcement);
    setText(announcement?.text ?? "");
    setError("");
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await authorisedFetch<Announcement>(editing ? editing.url : createUrl, {
        method: editing ? "PATCH" : "POST",
        body: { text } satisfies AnnouncementInput,
      });
      setAnnouncements((current) =>
        editing ? current.map((a) => (a.id === saved.id ? saved : a)) : [saved, ...current],
      );
      edit(null);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "The announcement was not saved. Please try again.");
    } finally {
      setSaving(false);
    }
  }

  async function remove(announcement: Announcement) {
    if (!(await confirmDeletion("This announcement will be permanently deleted!"))) return;
    try {
      await authorisedFetch(announcement.url, { method: "DELETE" });
    } catch {
      await Swal.fire({ title: "That did not work", text: "The announcement was not deleted.", icon: "error" });
      return;
    }
    setAnnouncements((current) => current.filter((a) => a.id !== announcement.id));
    if (editing?.id === announcement.id) edit(null);
    await Swal.fire({ title: "Deleted!", text: "The announcement has been deleted.", icon: "success" });
  }

  return (
    <div className="flex flex-col gap-6 max-w-3xl">
      <form onSubmit={(event) => void save(event)} className="flex flex-col gap-2">
        <label htmlFor="announcement-text" className="font-medium">
          Write announcement
        </label>
        <div className="flex flex-col sm:flex-row gap-2">
          <input
            id="announcement-text"
            className="input w-full"
            placeholder="Write announcement"
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={saving}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "announcement-error" : undefined}
          />
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {editing ? "Update" : "Add"}
          </button>
          {editing && (
            <button type="button" className="btn" onClick={() => edit(null)}>
              Cancel edit
            </button>
          )}
        </div>
        {error && (
          <p id="announcement-error" className="text-sm text-error">
            {error}
          </p>
        )}
      </form>
      {announcements.length === 0 ? (
        <p className="text-base-content/70">No announcements yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {announcements.map((announcement) => (
            <li key={announcement.id} className="card bg-base-100 shadow-sm">
              <div className="card-body flex-row items-start justify-between gap-4 p-4">
                <div>
                  <p className="whitespace-pre-line">{announcement.text}</p>
                  <p className="text-sm text-base-content/60">{longDate.format(new Date(announcement.createdAt))}</p>
                </div>
                <div className="flex gap-2">
                  <button type="button" className="btn btn-sm" onClick={() => edit(announcement)}>
                    Edit
                  </button>
                  <button type="button" className="btn btn-sm btn-error btn-outline" onClick={() => void remove(announcement)}>
                    Delete
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

mountIslands("announcements-admin", AnnouncementsAdmin);
