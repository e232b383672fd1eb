"""The day sheet (/schedule) in the browser: on a phone, the table scrolls inside its own box with
the court names in view, and the page itself never scrolls sideways; a signed-in person books free
cells of one court from it, the choice's bar staying on screen while they choose."""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, sign_in
from kernel.slots import slots_label

pytestmark = pytest.mark.browser

DAY = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(7, 22)]


@pytest.fixture
def courts(db):
    return [CourtFactory(name=f"Court number {n}", type="Tennis", slots=DAY) for n in range(1, 6)]


def test_on_a_phone_the_table_scrolls_in_its_box_and_the_court_names_stay(site: str, page: Page, courts):
    page.set_viewport_size(PHONE)
    page.goto(f"{site}/schedule?date={tomorrow().isoformat()}")
    page.wait_for_load_state("load")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.get_by_role("region", name=f"Courts on {tomorrow():%A %-d %B %Y}")
    box.focus()
    for _ in range(60):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_role("columnheader", name=slots_label(DAY[-1:]))).to_be_in_viewport()
    court = page.get_by_role("rowheader", name="Court number 1")
    assert court.bounding_box()["x"] <= 40, "the court names stay at the left while the table scrolls"


def test_a_signed_in_person_books_two_free_cells_of_one_court_from_the_sheet(site: str, page: Page):
    ada = User.objects.create_user("ada@example.com", name="Ada")
    centre = CourtFactory(name="Centre", type="Tennis", price=Decimal("15.00"), slots=DAY[:3])
    CourtFactory(name="Side", type="Tennis", slots=DAY[:3])
    day = tomorrow().isoformat()
    sign_in(page, site, "ada@example.com", f"/schedule?date={day}")

    side = page.get_by_role("button", name=f"Free (Side, {DAY[0]})")
    side.click()
    expect(side).to_have_attribute("aria-pressed", "true")
    # A cell of another court starts the choice afresh; the keyboard chooses too.
    page.get_by_role("button", name=f"Free (Centre, {DAY[0]})").click()
    page.get_by_role("button", name=f"Free (Centre, {DAY[2]})").focus()
    page.keyboard.press("Space")
    expect(side).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_text("Centre: 07:00–08:00, 09:00–10:00. Total $30.00.")).to_be_visible()
    page.get_by_role("button", name="Book", exact=True).click()

    expect(page.get_by_role("table").get_by_role("link", name="Yours")).to_have_count(2)
    booking = Booking.objects.get(user=ada)
    assert (booking.court, booking.slots, booking.status) == (
        centre,
        [DAY[0], DAY[2]],
        Booking.Status.PENDING,
    )


@pytest.mark.parametrize("screen", [PHONE, {"width": 1366, "height": 768}], ids=["phone", "desktop"])
def test_the_choice_and_book_stay_on_screen_while_cells_are_chosen_down_the_sheet(
    site: str, page: Page, screen: dict[str, int]
):
    User.objects.create_user("ada@example.com")
    for n in range(1, 21):
        CourtFactory(name=f"Court {n:02d}", type="Tennis", price=Decimal("15.00"), slots=DAY[:2])
    page.set_viewport_size(screen)
    sign_in(page, site, "ada@example.com", f"/schedule?date={tomorrow().isoformat()}")
    book = page.get_by_role("button", name="Book", exact=True)
    total = page.get_by_text(f"Court 01: {slots_label(DAY[:1])}. Total $15.00.")

    page.get_by_role("button", name=f"Free (Court 01, {DAY[0]})").click()

    # Far above the foot of the sheet, the choice, its total, Book and Clear are in view at once.
    for shown in [total, book, page.get_by_role("button", name="Clear")]:
        expect(shown).to_be_in_viewport()
    assert total.get_attribute("aria-live") == "polite"
    # Another pick down the sheet, still in view; the keyboard reaches Book from the last cell.
    last = page.get_by_role("button", name=f"Free (Court 20, {DAY[1]})")
    page.get_by_role("button", name=f"Free (Court 20, {DAY[0]})").click()
    last.focus()
    page.keyboard.press("Space")
    expect(page.get_by_text(f"Court 20: {slots_label(DAY[:2])}. Total $30.00.")).to_be_in_viewport()
    page.keyboard.press("Tab")
    expect(book).to_be_focused()
    expect(book).to_be_in_viewport()
    # At the foot of the page the bar sits below the table: the last row is never under it.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    row = page.get_by_role("row", name=re.compile("Court 20")).bounding_box()
    bar = book.bounding_box()
    assert row
    assert bar
    assert row["y"] + row["height"] <= bar["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= screen["width"]

    page.get_by_role("button", name="Clear").click()
    expect(book).to_have_count(0)
    expect(last).to_have_attribute("aria-pressed", "false")
