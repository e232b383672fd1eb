import pytest
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler
from playwright.sync_api import expect

from testing import chromium

# What a page is expected to show, it may take as long to show as an action may take to start
# (`context.set_default_timeout` below): on two busy cores, a sign-up's round of the emulator's
# endpoints, each checking its first request, can take more than Playwright's default 5 s.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """The system Chromium's headless shell (testing/chromium.py), which reaches nothing but
    loopback, where the live site and the local stand-ins run: any other host name resolves to
    nothing (a test may still answer a request for one itself, with `page.route`)."""
    only_loopback = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    return {
        **browser_type_launch_args,
        "executable_path": chromium.TESTS_EXECUTABLE,
        "args": [*chromium.ARGS, only_loopback],
    }


def _static_as_in_production(app):
    """Leave /static/ to WhiteNoise and the collected build, as gunicorn serves it, instead of the
    test server's finder-based handler (which knows no hashed names)."""
    return app


class _RequestHandler(QuietWSGIRequestHandler):
    # Each answer leaves in several writes (status line, headers, body). With Nagle's algorithm on,
    # a write waits for the peer to acknowledge the one before, and the peer holds its
    # acknowledgement back for up to 40 ms (delayed ACK): ~44 ms per request on a kept-alive
    # connection instead of ~1. gunicorn, which serves the site in production, sets TCP_NODELAY too.
    disable_nagle_algorithm = True


class _LiveServerThread(LiveServerThread):
    def _create_server(self, connections_override=None):
        return self.server_class(
            (self.host, self.port),
            _RequestHandler,
            allow_reuse_address=False,
            connections_override=connections_override,
        )


@pytest.fixture(scope="session")
def live_site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        thread = _LiveServerThread("127.0.0.1", static_handler=_static_as_in_production, port=0)
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error:
            raise thread.error
        yield f"http://127.0.0.1:{thread.port}"
        thread.terminate()


@pytest.fixture
def site(live_site, transactional_db, emulator):
    """The live site's address, with the Firebase Auth Emulator running (its accounts cleared for
    each test), which the sign-in pages call."""
    return live_site


@pytest.fixture(scope="module")
def _module_context(browser, browser_context_args, live_site):
    """The browser context of a module's tests, and a page of the site kept open in it.

    A new context's first page costs Chromium about 0.7 s of CPU more than a new page in a context
    that has one of the site's pages open: a renderer process started for it, and the site's
    scripts fetched and compiled again. So a module's tests share one context, emptied between
    them (`context`), whose HTTP cache and kept page (holding the site's renderer process) stay.
    """
    context = browser.new_context(**browser_context_args)
    context.set_default_timeout(10_000)
    kept = context.new_page()
    kept.goto(live_site + "/healthz")
    yield context, kept
    context.close()


@pytest.fixture
def context(_module_context, live_site):
    """The module's browser context (pytest-playwright's `page` opens a page in it), left as a new
    one would be: the test's pages closed, and no cookie, permission, route or stored data of the
    site (local storage, IndexedDB, where Firebase keeps who is signed in)."""
    context, kept = _module_context
    yield context
    for page in context.pages:
        if page != kept:
            page.close()
    context.unroute_all(behavior="ignoreErrors")
    context.clear_permissions()
    context.clear_cookies()
    devtools = context.new_cdp_session(kept)
    devtools.send("Storage.clearDataForOrigin", {"origin": live_site, "storageTypes": "all"})
    devtools.detach()
