import type { components } from "../api/schema";
import { AdminTable } from "../components/AdminTable";
import { Pager } from "../components/Pager";
import { mountIslands } from "../lib/islands";
import { useServerList } from "../lib/useServerList";

type User = components["schemas"]["UserOutput"];

interface Props {
  /** The first page, and the number of users in all. */
  users: User[];
  total: number;
  pageSize: number;
  usersUrl: string;
}

const BADGES: Record<string, string> = { admin: "badge-info", member: "badge-success" };
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** All Users (docs/staff-guide.md, Users): searched by name or e-mail as you type, and by role, on the server. */
function UsersAdmin({ users, total, pageSize, usersUrl }: Props) {
  const list = useServerList({
    url: usersUrl,
    initial: users,
    initialTotal: total,
    pageSize,
    failure: "Error: the users could not be loaded.",
  });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-2">
        <label htmlFor="user-search" className="sr-only">
          Search by name or email
        </label>
        <input
          id="user-search"
          type="search"
          className="input w-full max-w-md"
          placeholder="Search by name or email..."
          value={list.filters.search ?? ""}
          onChange={(event) => list.filter("search", event.target.value)}
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
        columns={["Name", "Email", "Role", "Created At", "Last Login"]}
        empty="No users found."
        rowKey={(user) => user.id}
        cells={(user) => (
          <>
            <td>{user.name || "—"}</td>
            <td>{user.email}</td>
            <td>
              <span className={`badge ${BADGES[user.role] ?? "badge-warning"} capitalize`}>{user.role}</span>
            </td>
            <td>{when.format(new Date(user.createdAt))}</td>
            <td>{user.lastLogin ? when.format(new Date(user.lastLogin)) : "Never"}</td>
          </>
        )}
      />
      <Pager offset={list.offset} total={list.total} pageSize={pageSize} noun="users" onChange={list.goTo} />
    </div>
  );
}

mountIslands("users-admin", UsersAdmin);
