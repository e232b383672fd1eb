import { type FormEvent, useEffect, useId, useState } from "react";

import { authorisedFetch } from "../lib/api";
import { mountIslands } from "../lib/islands";
import { notify } from "../lib/notify";

interface Player {
  id: number;
  kind: "person" | "invited" | "guest";
  status: "invited" | "playing";
  name: string;
  person: string | null;
  email: string | null;
}

interface Players {
  places: number;
  organiser: string;
  players: Player[];
  changeable: boolean;
  changeableUntil: string;
  /** The booking's price, its guests' fees included. */
  price: string;
  /** What each guest adds to it: the club's guest fee. */
  guestFee: string;
}

interface Person {
  id: string;
  name: string;
  /** How well they play, as they judge it (1.0 to 7.0), if they said. */
  level: string | null;
}

interface Props extends Players {
  /** GET and PUT /api/bookings/{id}/players. */
  url: string;
  /** GET /api/people?search=, the club's people by name. */
  peopleUrl: string;
}

/** What PUT takes: the list as it should be. */
interface Wanted {
  people: string[];
  invite: string[];
  guests: string[];
}

function wantedOf(players: Player[]): Wanted {
  return {
    people: players.flatMap((player) => (player.person ? [player.person] : [])),
    invite: players.flatMap((player) => (!player.person && player.email ? [player.email] : [])),
    guests: players.flatMap((player) => (player.kind === "guest" ? [player.name] : [])),
  };
}

/** The people of the club whose name holds `search` (two letters at least), once typing pauses. */
function usePeople(peopleUrl: string, search: string): Person[] {
  const term = search.trim();
  const [found, setFound] = useState<Person[]>([]);
  useEffect(() => {
    if (term.length < 2) return;
    let current = true;
    const timer = window.setTimeout(() => {
      const query = new URLSearchParams({ search: term, limit: "8" });
      authorisedFetch<Person[]>(`${peopleUrl}?${query}`)
        .then((people) => current && setFound(people))
        .catch(() => current && setFound([]));
    }, 250);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [peopleUrl, term]);
  return term.length < 2 ? [] : found;
}

interface AddOneProps {
  label: string;
  type: "email" | "text";
  button: string;
  placeholder?: string;
  /** Saves the list with the value added; answers whether it was saved (the field is then emptied). */
  onAdd: (value: string) => Promise<boolean>;
}

/** One field and its button that adds someone to the list: an address to invite, a guest's name. */
function AddOne({ label, type, button, placeholder, onAdd }: AddOneProps) {
  const [value, setValue] = useState("");
  const id = useId();

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const given = value.trim();
    if (given && (await onAdd(given))) setValue("");
  }

  return (
    <form className="flex flex-col gap-1" onSubmit={(event) => void add(event)}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <div className="join">
        <input
          id={id}
          type={type}
          className="input join-item w-full"
          autoComplete="off"
          maxLength={type === "text" ? 100 : undefined}
          placeholder={placeholder}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button className="btn join-item">{button}</button>
      </div>
    </form>
  );
}

/**
 * The players of a booking, for its organiser (docs/rules.md, Players): people of the club found by
 * name, addresses to invite and guests' names, as many as the court has places; each change is
 * saved at once, and the server tells whoever is added or taken off.
 */
function PlayersEditor({ url, peopleUrl, ...initial }: Props) {
  const [state, setState] = useState<Players>(initial);
  const [search, setSearch] = useState("");
  const [error, setError] = useState("");
  const [saving, setSaving] = useState(false);
  const found = usePeople(peopleUrl, search);
  const ids = useId();
  const taken = state.players.length + 1;
  const full = taken >= state.places;
  const chosen = new Set(state.players.map((player) => player.person));

  async function save(wanted: Wanted, done: string): Promise<boolean> {
    setSaving(true);
    setError("");
    try {
      setState(await authorisedFetch<Players>(url, { method: "PUT", body: wanted }));
      notify.success(done);
      return true;
    } catch (failure) {
      setError(notify.failure("The players could not be saved", failure, { alsoOnThePage: true }));
      return false;
    } finally {
      setSaving(false);
    }
  }

  const wanted = wantedOf(state.players);

  async function addPerson(person: Person) {
    if (await save({ ...wanted, people: [...wanted.people, person.id] }, `${person.name} plays`))
      setSearch("");
  }

  function remove(gone: Player) {
    const others = state.players.filter((player) => player.id !== gone.id);
    void save(wantedOf(others), `${gone.name} no longer plays`);
  }

  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-1" data-testid="players">
        <li>
          {state.organiser} <span className="badge badge-ghost">Organiser</span>
        </li>
        {state.players.map((player) => (
          <li key={player.id} className="flex flex-wrap items-center gap-2">
            <span className="break-all">
              {player.name} {player.kind === "guest" && <span className="badge badge-ghost">Guest</span>}
              {player.status === "invited" && <span className="badge badge-warning">Invited</span>}
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              disabled={saving}
              aria-label={`Remove ${player.name}`}
              onClick={() => remove(player)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <p className="text-sm text-base-content/70">
        {taken} of {state.places} places taken.
        {Number(state.guestFee) > 0 && ` The booking costs $${state.price}, its guests' fees included.`}
      </p>
      {error && (
        <p role="alert" className="text-error text-sm">
          {error}
        </p>
      )}
      {full ? (
        <p className="text-sm">Every place is taken: remove someone to add another.</p>
      ) : (
        <fieldset disabled={saving} className="flex flex-col gap-3">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-search`} className="font-medium">
              Add a person of the club
            </label>
            <input
              id={`${ids}-search`}
              type="search"
              className="input w-full"
              placeholder="Type a name"
              autoComplete="off"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            {search.trim().length >= 2 && (
              <ul className="menu bg-base-200 rounded-box" aria-label="People found">
                {found.filter((person) => !chosen.has(person.id)).length === 0 ? (
                  <li className="p-2 text-sm">Nobody of that name.</li>
                ) : (
                  found
                    .filter((person) => !chosen.has(person.id))
                    .map((person) => (
                      <li key={person.id}>
                        <button type="button" onClick={() => void addPerson(person)}>
                          Add {person.name}
                          {person.level && ` · level ${person.level}`}
                        </button>
                      </li>
                    ))
                )}
              </ul>
            )}
          </div>
          <AddOne
            label="Invite by e-mail"
            type="email"
            button="Invite"
            onAdd={(email) =>
              save({ ...wanted, invite: [...wanted.invite, email] }, `Invitation sent to ${email}`)
            }
          />
          {Number(state.guestFee) > 0 && (
            <p className="text-sm text-base-content/70">
              Each guest adds the club's ${state.guestFee} guest fee.
            </p>
          )}
          <AddOne
            label="Add a guest"
            type="text"
            button="Add guest"
            placeholder="Their name"
            onAdd={(name) =>
              save({ ...wanted, guests: [...wanted.guests, name] }, `${name} plays as a guest`)
            }
          />
        </fieldset>
      )}
    </div>
  );
}

mountIslands("players", PlayersEditor);
