"""localstripe (its command line: --port, --from-scratch), keeping what it knows in the file that
LOCALSTRIPE_STORE names. localstripe itself keeps it in /tmp/localstripe.pickle, one file for every
localstripe on the machine: the tests run one per process side by side, and a test that restarts
one must find its own payments there, not another's."""

import os
import pickle

from localstripe import resources, server

STORE = os.environ["LOCALSTRIPE_STORE"]


def _load(store: resources.Store) -> None:
    try:
        with open(STORE, "rb") as kept:
            saved = pickle.load(kept)  # noqa: S301 - the file this process wrote
    except FileNotFoundError:
        return
    store.clear()
    store.update(saved)


def _save(store: resources.Store) -> None:
    with open(STORE, "wb") as kept:
        pickle.dump(store, kept, protocol=pickle.HIGHEST_PROTOCOL)


resources.Store.try_load_from_disk = _load
resources.Store.dump_to_disk = _save

if __name__ == "__main__":
    server.start()
