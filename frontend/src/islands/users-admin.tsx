import { useEffect, useRef, useState } from "react";

import type { components } from "../api/schema";
import { AdminTable } from "../components/AdminTable";
import { authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

type User = components["schemas"]["UserOutput"];

interface Props {
  users: User[];
  usersUrl: string;
}

const BADGES: Record<string, string> = { admin: "badge-info", member: "badge-success" };
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const SEARCH_DELAY_MS = 250;

/** All Users (docs/staff-guide.md, Users): searched by name or e-mail as you type, on the server. */
function UsersAdmin({ users: initial, usersUrl }: Props) {
  const [users, setUsers] = useState(initial);
  const [search, setSearch] = useState("");
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false; // the page came with the full list
      return;
    }
    // Wait for a pause in the typing; a newer search discards the answer to an older one.
    let current = true;
    const timer = window.setTimeout(() => {
      authorisedFetch<User[]>(`${usersUrl}?search=${encodeURIComponent(search)}`)
        .then((found) => current && setUsers(found))
        .catch((error: unknown) => current && notify.failure("Error: the users could not be loaded.", error));
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [search, usersUrl]);

  return (
    <div className="flex flex-col gap-4">
      <label htmlFor="user-search" className="sr-only">
        Search by name or email
      </label>
      <input
        id="user-search"
        type="search"
        className="input w-full max-w-md"
        placeholder="Search by name or email..."
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <AdminTable
        rows={users}
        numbered
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
    </div>
  );
}

mountIslands("users-admin", UsersAdmin);
