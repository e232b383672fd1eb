import pytest

# The system Chromium (Debian's package): Playwright never downloads a browser here.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def site(live_server, page, transactional_db):
    """The live site in a browser page that can reach nothing but this machine."""
    page.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(live_server.url) else route.abort(),
    )
    page.set_default_timeout(10_000)
    return live_server.url
