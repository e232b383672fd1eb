"""The day sheet (/schedule) in the browser: on a phone, the table scrolls inside its own box with
the court names in view, and the page itself never scrolls sideways."""

import pytest
from playwright.sync_api import Page, expect

from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
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
    expect(page.get_by_role("columnheader", name=DAY[-1])).to_be_in_viewport()
    court = page.get_by_role("rowheader", name="Court number 1")
    assert court.bounding_box()["x"] <= 40, "the court names stay at the left while the table scrolls"
