"""Steps the browser tests share: what a person does, in the words of the page."""

from django.conf import settings
from playwright.sync_api import Locator, Page, expect

from testing.identity import session_cookie

PASSWORD = "secret-pass-1"  # every test account's
PHONE = {"width": 390, "height": 844}  # the phone the tests take: its viewport


def sign_in(page: Page, site: str, email: str, next_page: str, *, name: str = "") -> None:
    """Opens `next_page` signed in as `email`, with the session cookie of a test identity
    (testing/identity.py): the browser tests of signing in itself go through /login
    (`sign_in_on_the_login_page`)."""
    cookie = session_cookie(email, name=name)
    page.context.add_cookies([{"name": settings.IDENTITY_COOKIE_NAME, "value": cookie, "url": site}])
    page.goto(site + next_page)
    expect(page).to_have_url(site + next_page)


def sign_in_on_the_login_page(page: Page, site: str, email: str, next_page: str) -> None:
    """Signs in through /login, with the emulator's account of `email`, and lands on `next_page`."""
    page.goto(f"{site}/login?next={next_page}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Login").click()
    expect(page).to_have_url(site + next_page)


# Two frames after its scripts have run, a page's islands have mounted and asked for their data.
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def requests_under_way(page: Page) -> set:
    """The page's requests not answered yet, kept up to date as they start and end."""
    under_way: set = set()
    page.on("request", lambda request: under_way.add(request))
    page.on("requestfinished", lambda request: under_way.discard(request))
    page.on("requestfailed", lambda request: under_way.discard(request))
    return under_way


def wait_until_settled(page: Page, under_way: set) -> None:
    """Waits until the page's islands have mounted and have what they asked for (the requests
    under way are followed: waiting for the network to stay idle would cost half a second a page)."""
    page.evaluate(TWO_FRAMES)
    for _ in range(500):
        if not under_way:
            break
        page.wait_for_timeout(20)
    assert not under_way, [request.url for request in under_way]


def sign_up_on_the_register_page(
    page: Page, site: str, name: str, email: str, password: str = PASSWORD
) -> None:
    """Fills the /register form and sends it (an account of the emulator)."""
    page.goto(site + "/register")
    page.get_by_label("Full Name").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign Up").click()


def register(page: Page, site: str, name: str, email: str, password: str = PASSWORD) -> None:
    """Registers through /register, then goes on from the page that says where the verification
    link went."""
    sign_up_on_the_register_page(page, site, name, email, password)
    page.get_by_role("link", name="Continue").click()


def assert_on_screen(control: Locator) -> None:
    """`control` is shown whole within a phone's width, and nothing covers it: a tap would reach it."""
    expect(control).to_be_visible()
    box = control.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"], f"{control} ends at {box['x'] + box['width']} px"
    control.click(trial=True)
