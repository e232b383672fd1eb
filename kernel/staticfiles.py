"""Static files: Django hashes the project's own files; Vite has already hashed its build."""

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.files import File
from whitenoise.storage import CompressedManifestStaticFilesStorage

VITE_PREFIX = "dist/"


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # whitenoise has no types
    """Compresses everything, hashes everything but the Vite build: Vite has named its files after
    their content already, and hashing them again would break the imports between its chunks."""

    def hashed_name(self, name: str, content: File[bytes] | None = None, filename: str | None = None) -> str:
        if name.startswith(VITE_PREFIX):
            return name
        hashed: str = super().hashed_name(name, content, filename)
        return hashed


def static_url_for(location: str) -> str:
    """The URL of an image location stored in the database: a shipped file is stored by its plain
    static path ('/static/img/x.svg'), valid across deployments, and served by its hashed name."""
    if not location.startswith(settings.STATIC_URL):
        return location
    try:
        return staticfiles_storage.url(location.removeprefix(settings.STATIC_URL))
    except ValueError:  # not among the collected files: serve the path as stored
        return location
