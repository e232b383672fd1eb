import pytest
from django.conf import settings


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """PostgreSQL through the tests' backend, which empties the tables between tests by DELETE
    (testing/postgresql/base.py)."""
    from django.db import connections

    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        settings.DATABASES["default"]["ENGINE"] = "testing.postgresql"
        # Django made this process's connection object as the models loaded (to read a name
        # length), before any test setting: the next use makes it again, with the tests' backend.
        del connections["default"]


@pytest.fixture(scope="session", autouse=True)
def _content_types_and_permissions_made_once(django_db_setup):
    """Django's post_migrate receivers make the content types and permissions as the test database
    is migrated, and not again after each test's flush, which keeps them (testing/postgresql/base.py):
    they would read them all back, about 0.1 s a test."""
    from django.contrib.auth.management import create_permissions, rename_permissions_after_model_rename
    from django.contrib.contenttypes.management import create_contenttypes
    from django.db.models.signals import post_migrate

    auth = "django.contrib.auth.management."
    receivers = [
        (create_contenttypes, None),
        (create_permissions, auth + "create_permissions"),
        (rename_permissions_after_model_rename, auth + "rename_permissions"),
    ]
    for receiver, dispatch_uid in receivers:
        post_migrate.disconnect(receiver, dispatch_uid=dispatch_uid)
    yield
    for receiver, dispatch_uid in receivers:
        post_migrate.connect(receiver, dispatch_uid=dispatch_uid)


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


@pytest.fixture(scope="session", autouse=True)
def _static_files_listed_once():
    """The test clients' WhiteNoise reads the static files' list once (testing/static_files.py)."""
    from testing.static_files import listed_once

    with listed_once():
        yield


# The fixtures of the outside services' stand-ins: a test that uses one (or drives a browser) is an
# integration test; the others run on PostgreSQL alone (`pytest -m "not integration"`).
STAND_INS = {"_emulator", "_localstripe", "identity_provider_down"}


@pytest.hookimpl(tryfirst=True)
def pytest_itemcollected(item):
    if STAND_INS & set(getattr(item, "fixturenames", ())) or item.get_closest_marker("browser"):
        item.add_marker(pytest.mark.integration)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Browser tests run last (after pytest-django's own ordering).

    Django keeps a database connection per context (asgiref's Local), and once Playwright's sync
    API has started, tests run in a context of their own: a test after them would open a
    connection that nothing closes, and that keeps the test database from being dropped.

    Among them, each module's tests run together: pytest-playwright's session-wide parameter
    (`browser_name`) would otherwise put a module's page tests apart from its other tests, and a
    module-scoped fixture (the fault tests' site, with its own emulator and gunicorn) would start twice.
    """
    first_of_module: dict = {}
    for position, item in enumerate(items):
        first_of_module.setdefault(item.module, position)

    def order(item):
        browser = item.get_closest_marker("browser") is not None
        return (browser, first_of_module[item.module] if browser else 0)

    items.sort(key=order)


@pytest.fixture(scope="session")
def _emulator():
    """The Firebase Auth Emulator at FIREBASE_AUTH_EMULATOR_HOST, started there for the session if
    none answers."""
    from testing import emulator

    with emulator.running():
        yield emulator


@pytest.fixture
def emulator(_emulator):
    """The Firebase Auth Emulator, with no accounts."""
    _emulator.clear_accounts()
    return _emulator


@pytest.fixture(scope="session", autouse=True)
def _test_identities_accepted():
    """This process, and it alone, accepts test identities (testing/identity.py)."""
    settings.ACCEPT_TEST_IDENTITIES = True


@pytest.fixture
def sign_in_as():
    """Signs a new person in without the identity provider and answers a test client carrying the
    session cookie: a test identity (testing/identity.py). The tests about signing in itself use
    `sign_in_through_provider`."""
    from accounts.models import User
    from testing.identity import signed_in_client

    def sign_in(email: str = "ada@example.com", role: str = User.Role.USER, name: str = "Ada Lovelace"):
        return signed_in_client(email, name=name, role=role)

    return sign_in


@pytest.fixture
def sign_in_through_provider(emulator):
    """Signs a new account in through the real path (emulator token → POST /api/session → cookie)
    and answers a test client carrying its session cookie."""
    from django.test import Client

    from accounts.models import User

    def sign_in(
        email: str = "ada@example.com", role: str = User.Role.USER, name: str = "Ada Lovelace"
    ) -> Client:
        account = emulator.sign_up(email, name=name)
        signed_in = Client()
        response = signed_in.post(
            "/api/session", {"idToken": account["idToken"]}, content_type="application/json"
        )
        assert response.status_code == 200, response.content
        User.objects.filter(email=email).update(role=role)
        return signed_in

    return sign_in


@pytest.fixture
def identity_provider_down(monkeypatch):
    """The identity provider unreachable: firebase-admin pointed at a port where nothing listens."""
    import firebase_admin

    from accounts import identity
    from scripts import local_stack

    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{local_stack.free_port()}")
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()
    yield
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()


@pytest.fixture(scope="session")
def _localstripe():
    """localstripe at STRIPE_API_BASE, started there for the session if none answers."""
    from testing import stripe_stand_in

    with stripe_stand_in.running():
        yield stripe_stand_in


@pytest.fixture
def localstripe(_localstripe):
    """localstripe, the local stand-in for Stripe, emptied."""
    _localstripe.clear()
    return _localstripe


@pytest.fixture(params=["anonymous", "user", "member", "admin"])
def caller(request, sign_in_as):
    """Each kind of caller in turn, as (kind, a test client): nobody signed in, a user, a member,
    an admin."""
    from django.test import Client

    from accounts.models import User

    kind = request.param
    roles = {"user": User.Role.USER, "member": User.Role.MEMBER, "admin": User.Role.ADMIN}
    return kind, Client() if kind == "anonymous" else sign_in_as(f"{kind}@example.com", roles[kind])


@pytest.fixture
def admin(sign_in_as):
    """A test client signed in as Ann, an admin."""
    from accounts.models import User

    return sign_in_as("ann@example.com", User.Role.ADMIN)


@pytest.fixture
def people(sign_in_as):
    """A test client for each kind of caller. Ada ("owner") owns what the test is about; Bob is
    another user, Mia a member, Ann an admin."""
    from django.test import Client

    from accounts.models import User

    return {
        "anonymous": Client(),
        "owner": sign_in_as("ada@example.com"),
        "other": sign_in_as("bob@example.com"),
        "member": sign_in_as("mia@example.com", User.Role.MEMBER),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN),
    }


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Every test starts with no request counted against any limit."""
    from django.core.cache import caches

    caches["default"].clear()


@pytest.fixture(scope="session")
def _mailbox():
    from testing.mail import mailbox_of_the_tests

    kept = mailbox_of_the_tests()
    yield kept
    kept.stop()


@pytest.fixture
def mailbox(_mailbox, settings):
    """The site's mail server (a real SMTP server on loopback), running and empty."""
    from testing.mail import smtp_mailers

    settings.MAILERS = smtp_mailers(_mailbox)
    _mailbox.clear()
    _mailbox.start()
    return _mailbox
