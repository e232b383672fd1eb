import { useState } from "react";
import Swal from "sweetalert2";

import type { components } from "../api/schema";
import { AdminTable, RowActions } from "../components/AdminTable";
import { authorisedFetch } from "../lib/api";
import { confirmDeletion } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

type Member = components["schemas"]["MemberOutput"];

const joined = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** Manage Members (docs/staff-guide.md, Members): search, and end a membership (the account stays, as a user). */
function MembersAdmin({ members: initial }: { members: Member[] }) {
  const [members, setMembers] = useState(initial);
  const [search, setSearch] = useState("");
  const [deleting, setDeleting] = useState<number | null>(null);
  const needle = search.trim().toLowerCase();
  const shown = members.filter((m) => !needle || `${m.name} ${m.email}`.toLowerCase().includes(needle));

  async function remove(member: Member) {
    if (!(await confirmDeletion("Do you really want to delete this member?"))) return;
    setDeleting(member.id);
    try {
      await authorisedFetch(member.url, { method: "DELETE" });
      setMembers((current) => current.filter((m) => m.id !== member.id));
      await Swal.fire({ title: "Deleted!", text: "The member has been deleted.", icon: "success" });
    } catch (error) {
      notify.failure("Failed to delete member", error);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <label htmlFor="member-search" className="sr-only">
        Search members by name or email
      </label>
      <input
        id="member-search"
        type="search"
        className="input w-full max-w-md"
        placeholder="Search by name or email..."
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <AdminTable
        rows={shown}
        numbered
        columns={["Name", "Email", "Joined"]}
        actions="Delete"
        empty="No members found."
        rowKey={(member) => member.id}
        cells={(member) => (
          <>
            <td>{member.name || "—"}</td>
            <td>{member.email}</td>
            <td>{member.createdAt ? joined.format(new Date(member.createdAt)) : "—"}</td>
            <RowActions
              name={member.email}
              onDelete={() => void remove(member)}
              deleting={deleting === member.id}
            />
          </>
        )}
      />
    </div>
  );
}

mountIslands("members-admin", MembersAdmin);
