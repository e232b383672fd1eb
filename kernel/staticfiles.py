"""Static files: Django hashes the project's own files; Vite has already hashed its build."""

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
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


def static_url_for(location: str) -> str:
    """The URL to serve an image location stored in the database by.

    A file shipped with the project is stored by its plain static path ('/static/img/x.svg'), which
    stays valid across deployments; it is served by its content-hashed name, cached for ever. Any
    other location (an external URL) is returned as it is.
    """
    if not location.startswith(settings.STATIC_URL):
        return location
    try:
        return staticfiles_storage.url(location.removeprefix(settings.STATIC_URL))
    except ValueError:  # not among the collected files: serve the path as stored
        return location
