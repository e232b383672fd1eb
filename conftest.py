import pytest
from django.conf import settings


@pytest.fixture(scope="session", autouse=True)
def _postgresql_and_build(django_db_setup, django_db_blocker):
    """Tests speak to PostgreSQL and render the built front end, as production does."""
    with django_db_blocker.unblock():
        from django.db import connection

        if connection.vendor != "postgresql":
            pytest.exit(f"Tests need PostgreSQL; DATABASE_URL points at {connection.vendor}.", returncode=2)
    if (
        not (settings.VITE_OUT_DIR / "manifest.json").exists()
        or not (settings.STATIC_ROOT / "staticfiles.json").exists()
    ):
        pytest.exit("Build the front end first: `make build` (or `make test`, which does it).", returncode=2)
