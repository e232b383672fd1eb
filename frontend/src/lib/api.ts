import { islandConfig } from "./config";

/** An answer from our API that was not a success, with the message to show a person. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Messages per field, for a 400 (DRF's shape: {"field": ["message"]}). */
    readonly fields: Record<string, string[]> = {},
    /** What kind of refusal, where the server names one (`{"detail": …, "code": …}`). */
    readonly code: string = "",
    /** The server's reason, for the whole request or the first field's ("" when it gave none). */
    readonly reason: string = "",
    /** The answer's whole body, for a refusal that carries more than a message (a 409's list, say). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** Keys under which the server sends messages about the whole request rather than one field. */
const WHOLE_REQUEST = ["detail", "non_field_errors"];

function messageOf(status: number, body: unknown): ApiError {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === "string") {
      const code = typeof record.code === "string" ? record.code : "";
      return new ApiError(status, record.detail, {}, code, record.detail, body);
    }
    const lists = Object.entries(record).filter((entry): entry is [string, string[]] =>
      Array.isArray(entry[1]),
    );
    const fields = Object.fromEntries(lists.filter(([key]) => !WHOLE_REQUEST.includes(key)));
    const first = lists.find(([key]) => WHOLE_REQUEST.includes(key))?.[1][0] ?? Object.values(fields)[0]?.[0];
    if (first) return new ApiError(status, first, fields, "", first, body);
  }
  return new ApiError(status, "Something went wrong. Please try again.");
}

type Init = { method?: string; body?: unknown };

/** Sends JSON to our API with the session cookie and the CSRF token; answers the parsed body and the headers. */
async function send(url: string, init: Init): Promise<{ body: unknown; headers: Headers }> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      "X-CSRFToken": islandConfig().csrfToken,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw messageOf(response.status, body);
  return { body, headers: response.headers };
}

/** Calls our API; answers the parsed body. */
export async function apiFetch<T>(url: string, init: Init = {}): Promise<T> {
  return (await send(url, init)).body as T;
}

/**
 * For islands that call the API as a signed-in person: a 401 or 403 means the session is gone or
 * not enough, so sign out and go to the login page, to come back here afterwards.
 */
async function asSignedIn<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      const { urls } = islandConfig();
      await apiFetch(urls.session, { method: "DELETE" }).catch(() => undefined);
      const here = window.location.pathname + window.location.search;
      window.location.assign(`${urls.login}?next=${encodeURIComponent(here)}`);
    }
    throw error;
  }
}

/** Calls our API as the signed-in person (see asSignedIn); answers the parsed body. */
export function authorisedFetch<T>(url: string, init: Init = {}): Promise<T> {
  return asSignedIn(() => apiFetch<T>(url, init));
}

/** One slice of an API list (`?limit=&offset=`), as the signed-in person: its rows and the whole list's size. */
export function authorisedSlice<T>(url: string): Promise<{ rows: T[]; total: number }> {
  return asSignedIn(async () => {
    const { body, headers } = await send(url, {});
    return { rows: body as T[], total: Number(headers.get("X-Total-Count") ?? 0) };
  });
}
