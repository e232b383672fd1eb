import type { FormEvent } from "react";

import type { components } from "../api/schema";
import { Pager } from "../components/Pager";
import { dialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { useAdminList } from "../lib/useAdminList";
import { type FirstPage, useServerList } from "../lib/useServerList";

type Announcement = components["schemas"]["AnnouncementOutput"];
type AnnouncementInput = components["schemas"]["AnnouncementInputRequest"];

interface Props {
  firstPage: FirstPage<Announcement>;
  createUrl: string;
}

/**
 * Make Announcements (docs/staff-guide.md, Announcements): write, edit and delete the club's
 * announcements, newest first, a page at a time.
 */
function AnnouncementsAdmin({ firstPage, createUrl }: Props) {
  const pages = useServerList(firstPage, "Error: the announcements could not be loaded.");
  const list = useAdminList({
    initial: pages,
    createUrl,
    blank: { text: "" },
    formOf: (announcement: Announcement) => ({ text: announcement.text }),
    newestFirst: true,
  });
  const { editing, form, errors, saving } = list;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await list.save({ text: form.text } satisfies AnnouncementInput, "The announcement was not saved.");
  }

  async function remove(announcement: Announcement) {
    const question = "This announcement will be permanently deleted!";
    if (await list.remove(announcement, question, "The announcement was not deleted.")) {
      await dialog.fire({ title: "Deleted!", text: "The announcement has been deleted.", icon: "success" });
    }
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
            value={form.text}
            onChange={(event) => list.setForm({ text: event.target.value })}
            disabled={saving}
            aria-invalid={errors.text ? true : undefined}
            aria-describedby={errors.text ? "announcement-error" : undefined}
          />
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {editing ? "Update" : "Add"}
          </button>
          {editing && (
            <button type="button" className="btn" onClick={() => list.edit(null)}>
              Cancel edit
            </button>
          )}
        </div>
        {errors.text && (
          <p id="announcement-error" className="text-sm text-error">
            {errors.text}
          </p>
        )}
      </form>
      {list.rows.length === 0 ? (
        <p className="text-base-content/70">No announcements yet.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {list.rows.map((announcement) => (
            <li key={announcement.id} className="card bg-base-100 shadow-sm">
              <div className="card-body flex-row items-start justify-between gap-4 p-4">
                <div>
                  <p className="whitespace-pre-line">{announcement.text}</p>
                  <p className="text-sm text-base-content/60">{announcement.createdAtLabel}</p>
                </div>
                <div className="flex gap-2">
                  <button type="button" className="btn btn-sm" onClick={() => list.edit(announcement)}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-error btn-outline"
                    onClick={() => void remove(announcement)}
                  >
                    Delete
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager
        offset={pages.offset}
        total={pages.total}
        pageSize={pages.pageSize}
        noun="announcements"
        onChange={pages.goTo}
      />
    </div>
  );
}

mountIslands("announcements-admin", AnnouncementsAdmin);
