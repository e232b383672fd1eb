"""WhiteNoise's list of the collected static files, read from disk once per test run.

WhiteNoise's middleware lists every file under STATIC_ROOT (a stat of each, and of its compressed
variants) when it is made. A server makes it once; Django's test client makes its middleware anew
for every client, and a test that signs in four people makes five of them: about 0.1 s each, for
the same list. Within a run the list is read once for each set of WhiteNoise settings (and read
again if the collected files are, by staticfiles.json's time); the files are served as before.
"""

import contextlib
import os

from django.conf import settings
from whitenoise.base import WhiteNoise

SETTINGS = (
    "WHITENOISE_IMMUTABLE_FILE_TEST",
    "WHITENOISE_MIMETYPES",
    "WHITENOISE_ADD_HEADERS_FUNCTION",
    "WHITENOISE_INDEX_FILE",
)


def _collected_at(root: str) -> int:
    manifest = os.path.join(root, "staticfiles.json")
    with contextlib.suppress(OSError):
        return os.stat(manifest).st_mtime_ns
    return os.stat(root).st_mtime_ns


@contextlib.contextmanager
def listed_once():
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
