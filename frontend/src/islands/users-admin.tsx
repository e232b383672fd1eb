import type { components } from "../api/schema";
import { AdminTable } from "../components/AdminTable";
import { MembershipCell } from "../components/MembershipCell";
import { Pager } from "../components/Pager";
import { SearchBox } from "../components/SearchBox";
import { authorisedFetch } from "../lib/api";
import { confirmThenCall } from "../lib/dialogs";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";
import { type FirstPage, useServerList } from "../lib/useServerList";

type User = components["schemas"]["UserWithMembershipOutput"];

const BADGES: Record<string, string> = { admin: "badge-info", member: "badge-success" };

/** All Users (docs/staff-guide.md, Users): searched by name or e-mail as you type, and by role, on the server; each person's membership beside their role. */
function UsersAdmin(firstPage: FirstPage<User>) {
  const list = useServerList(firstPage, "Error: the users could not be loaded.");

  /** Makes the person an admin, or takes it back, after asking (the server keeps the last admin). */
  async function setAdmin(user: User, admin: boolean) {
    const changed = await confirmThenCall(
      {
        titleText: admin ? `Make ${user.email} an admin?` : `Take admin away from ${user.email}?`,
        text: admin
          ? "They can then approve bookings, run courts, coupons and announcements, and change roles."
          : "They lose the admin pages and become a member again if they ever paid, else a user.",
        confirmButtonText: admin ? "Yes, make them an admin" : "Yes, take it away",
        cancelButtonText: "No",
      },
      () =>
        authorisedFetch(`${firstPage.url}/${encodeURIComponent(user.email)}/role`, {
          method: "PATCH",
          body: { admin },
        }),
      "The role was not changed.",
    );
    if (!changed) return;
    notify.success(admin ? `${user.email} is now an admin.` : `${user.email} is no longer an admin.`);
    list.reload();
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-2">
        <SearchBox
          id="user-search"
          label="Search by name or email"
          value={list.filters.search ?? ""}
          onChange={(value) => list.filter("search", value)}
        />
        <label htmlFor="user-role" className="sr-only">
          Role
        </label>
        <select
          id="user-role"
          className="select w-auto"
          value={list.filters.role ?? ""}
          onChange={(event) => list.filter("role", event.target.value)}
        >
          <option value="">All roles</option>
          <option value="user">Users</option>
          <option value="member">Members</option>
          <option value="admin">Admins</option>
        </select>
      </div>
      <AdminTable
        rows={list.rows}
        numbered
        firstNumber={list.offset + 1}
        columns={["Name", "Email", "Role", "Membership", "Created At", "Last Login"]}
        actions="Admin role"
        empty="No users found."
        rowKey={(user) => user.id}
        cells={(user) => (
          <>
            <td>{user.name || "—"}</td>
            <td>{user.email}</td>
            <td>
              <span className={`badge ${BADGES[user.role] ?? "badge-warning"} capitalize`}>{user.role}</span>
            </td>
            <MembershipCell membership={user.membership} />
            <td>{user.createdAtLabel}</td>
            <td>{user.lastLoginLabel ?? "Never"}</td>
            <td className="actions">
              <button
                type="button"
                className="btn btn-xs btn-outline"
                onClick={() => void setAdmin(user, user.role !== "admin")}
              >
                {user.role === "admin" ? "Remove admin" : "Make admin"}
                <span className="sr-only">{` (${user.email})`}</span>
              </button>
            </td>
          </>
        )}
      />
      <Pager
        offset={list.offset}
        total={list.total}
        pageSize={list.pageSize}
        noun="users"
        onChange={list.goTo}
      />
    </div>
  );
}

mountIslands("users-admin", UsersAdmin);
