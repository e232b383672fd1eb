"""WhiteNoise's list of the collected static files, read from disk once per test run.

WhiteNoise's middleware lists every file under STATIC_ROOT (a stat of each, and of its compressed
variants) when it is made. A server makes it once; Django's test client makes its middleware anew
for every client, and a test that signs in four people makes five of them: about 0.1 s each, for
the same list. Within a run the list is read once for each set of WhiteNoise settings (and read
again when a file has been added to or removed from the collected ones); each file is served as
WhiteNoise serves it, headers and compressed variants included.
"""

import contextlib
import os
from collections.abc import Iterator

from django.conf import settings
from whitenoise.base import WhiteNoise

SETTINGS = (
    "WHITENOISE_IMMUTABLE_FILE_TEST",
    "WHITENOISE_MIMETYPES",
    "WHITENOISE_ADD_HEADERS_FUNCTION",
    "WHITENOISE_INDEX_FILE",
)


def _collected_at(root: str) -> tuple[int, ...]:
    """When each folder's list of files last changed (a file added or removed in it): a few ms."""
    return tuple(os.stat(folder).st_mtime_ns for folder, _, _ in os.walk(root))


@contextlib.contextmanager
def listed_once() -> Iterator[None]:
    listed: dict = {}
    update_files_dictionary = WhiteNoise.update_files_dictionary

    def once(self, root, prefix):
        key = (
            root,
            prefix,
            self.max_age,
            self.allow_all_origins,
            self.charset,
            self.index_file,
            repr([getattr(settings, name, None) for name in SETTINGS]),
            _collected_at(root),
        )
        if key not in listed:
            files, self.files = self.files, {}
            try:
                update_files_dictionary(self, root, prefix)
                listed[key] = self.files
            finally:
                self.files = files
        self.files.update(listed[key])

    WhiteNoise.update_files_dictionary = once
    try:
        yield
    finally:
        WhiteNoise.update_files_dictionary = update_files_dictionary
