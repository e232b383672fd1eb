"""Static files: Django hashes the project's own files; Vite has already hashed its build."""

from whitenoise.storage import CompressedManifestStaticFilesStorage

VITE_PREFIX = "dist/"


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Compresses everything, hashes everything but the Vite build.

    Vite names every file it emits after its content and rewrites the imports between chunks to
    those names; hashing them a second time would break those imports (and double the files).
    """

    def hashed_name(self, name, content=None, filename=None):
        if name.startswith(VITE_PREFIX):
            return name
        return super().hashed_name(name, content, filename)
