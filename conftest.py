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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Browser tests run last (after pytest-django's own ordering).

    Django keeps a database connection per context (asgiref's Local), and once Playwright's sync
    API has started, tests run in a context of their own: a test after them would open a
    connection that nothing closes, and that keeps the test database from being dropped.
    """
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
