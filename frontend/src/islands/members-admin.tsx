import { useState } from "react";

import type { components } from "../api/schema";
import { AdminTable, RowActions } from "../components/AdminTable";
import { MembershipCell } from "../components/MembershipCell";
import { Pager } from "../components/Pager";
import { SearchBox } from "../components/SearchBox";
import { authorisedFetch } from "../lib/api";
import { confirmDeletion, dialog } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";
import { type FirstPage, useServerList } from "../lib/useServerList";

type Member = components["schemas"]["MemberWithMembershipOutput"];

/** Manage Members (docs/staff-guide.md, Members): each member's plan and its renewal, search on the server, and end a membership (the account stays, as a user). */
function MembersAdmin(firstPage: FirstPage<Member>) {
  const list = useServerList(firstPage, "Error: the members could not be loaded.");
  const [deleting, setDeleting] = useState<number | null>(null);

  async function remove(member: Member) {
    if (!(await confirmDeletion("Do you really want to delete this member?"))) return;
    setDeleting(member.id);
    try {
      await authorisedFetch(member.url, { method: "DELETE" });
      list.reload();
      await dialog.fire({ title: "Deleted!", text: "The member has been deleted.", icon: "success" });
    } catch (error) {
      notify.failure("Failed to delete member", error);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <SearchBox
        id="member-search"
        label="Search members by name or email"
        value={list.filters.search ?? ""}
        onChange={(value) => list.filter("search", value)}
      />
      <AdminTable
        rows={list.rows}
        numbered
        firstNumber={list.offset + 1}
        columns={["Name", "Email", "Membership", "Joined"]}
        actions="Delete"
        empty="No members found."
        rowKey={(member) => member.id}
        cells={(member) => (
          <>
            <td>{member.name || "—"}</td>
            <td>{member.email}</td>
            <MembershipCell membership={member.membership} />
            <td>{member.createdAtLabel ?? "—"}</td>
            <RowActions
              name={member.email}
              onDelete={() => void remove(member)}
              deleting={deleting === member.id}
            />
          </>
        )}
      />
      <Pager
        offset={list.offset}
        total={list.total}
        pageSize={list.pageSize}
        noun="members"
        onChange={list.goTo}
      />
    </div>
  );
}

mountIslands("members-admin", MembersAdmin);
