"""The /schedule page: the day sheet as a table that reads without JavaScript."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.blocks import block_create
from bookings.services import booking_cancel
from bookings.tests.factories import make_booking, tomorrow
from bookings.waitlist import waitlist_join, waitlist_offer
from courts.tests.factories import CourtFactory
from kernel import days

pytestmark = pytest.mark.django_db

MORNING = ["08:00-09:00", "09:00-10:00"]


def cells(html: str) -> dict[str, list[str]]:
    """Each row's court name and its cells' text, as a person reading the table hears it."""

    def text(fragment: str) -> str:
        heard = re.sub(r'<span aria-hidden="true">.*?</span>', "", fragment)
        return " ".join(re.sub(r"<[^>]+>", " ", heard).split())

    rows = re.findall(r'<th scope="row"[^>]*>(.*?)<span.*?</th>(.*?)</tr>', html, re.S)
    return {
        name: [text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", rest, re.S)] for name, rest in rows
    }


@pytest.fixture
def booked(people):
    court = CourtFactory(name="Centre", type="Tennis", slots=MORNING)
    CourtFactory(name="Hall", type="Badminton", slots=["09:00-10:00"])
    return make_booking(user=User.objects.get(email="ada@example.com"), court=court, slots=MORNING[:1])


def page(client, query: str = "") -> str:
    response = client.get(f"/schedule?date={tomorrow().isoformat()}{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_sheet_is_a_table_with_a_caption_and_headers_for_slots_and_courts(people, booked):
    html = page(people["anonymous"])

    assert re.search(rf"<caption[^>]*>Courts on {tomorrow():%A %-d %B %Y}</caption>", html)
    headers = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html)
    assert [re.sub(r"<[^>]+>", "", header) for header in headers] == ["Court", "08:00–09:00", "09:00–10:00"]
    assert cells(html) == {
        "Hall": ["Not offered", "Free Sign in to book (Hall, 09:00-10:00)"],
        "Centre": ["Taken", "Free Sign in to book (Centre, 09:00-10:00)"],
    }


@pytest.mark.parametrize("kind", ["anonymous", "other", "member"])
def test_nobody_but_the_owner_and_the_admins_learns_whose_a_cell_is(people, booked, kind):
    html = page(people[kind])

    # A signed-in person may join the slot's waitlist; a visitor is told only that it is taken.
    join = "" if kind == "anonymous" else " Join waitlist (Centre, 08:00-09:00)"
    assert cells(html)["Centre"][0] == "Taken" + join
    assert "ada@example.com" not in html
    assert f"/dashboard/bookings/{booked.pk}" not in html


def test_the_owner_sees_their_cell_linked_to_their_booking(people, booked):
    html = page(people["owner"])

    assert cells(html)["Centre"] == ["Yours Pending", "Free (Centre, 09:00-10:00)"]
    assert f'href="/dashboard/bookings/{booked.pk}">Yours</a>' in html


def test_an_admin_sees_who_holds_a_cell_and_its_status_linked_to_the_booking(people, booked):
    html = page(people["admin"])

    assert cells(html)["Centre"] == [
        "ada@example.com Pending Approve (Centre, 08:00-09:00) Reject (Centre, 08:00-09:00) "
        "Cancel (Centre, 08:00-09:00)",
        "Free (Centre, 09:00-10:00)",
    ]
    assert f'href="/dashboard/bookings/{booked.pk}">ada@example.com</a>' in html


def test_what_people_wrote_is_shown_as_text_in_the_cells(people, booked):
    """A court's name, a block's reason and an e-mail address are escaped in every cell that says them."""
    admin = User.objects.get(email="ann@example.com")
    court = CourtFactory(name="<b>Hall & Co</b>", type="Tennis", slots=MORNING)
    block_create(
        by=admin, court=court, date=tomorrow(), slots=MORNING[:1], reason='<img src=x onerror="boom">'
    )
    User.objects.filter(email="ada@example.com").update(email="ada+<i>@example.com")

    html = page(people["admin"])

    assert "<b>" not in html
    assert "<img src=x" not in html
    assert "<i>" not in html
    hall = "&lt;b&gt;Hall &amp; Co&lt;/b&gt;"
    reason = "&lt;img src=x onerror=&quot;boom&quot;&gt;"
    assert cells(html)[hall][0] == f"Blocked {reason} Unblock ({hall}, 08:00-09:00)"
    assert cells(html)["Centre"][0].startswith("ada+&lt;i&gt;@example.com Pending")


def test_a_signed_in_person_gets_the_free_cells_as_toggles_of_the_booking_island(people, booked):
    html = page(people["other"])

    assert html.count("data-sheet-slot=") == 2  # Centre's 09:00 and Hall's
    toggle = (
        f'data-sheet-court="{booked.court_id}" data-sheet-slot="09:00-10:00" aria-pressed="false" disabled>'
    )
    assert toggle in html
    assert 'data-island="schedule"' in html
    assert '"bookingsUrl": "/api/bookings"' in html


def test_the_schedule_island_names_the_courts_and_writes_the_day_as_the_club_does(people, booked):
    CourtFactory(name="", type="Squash", slots=MORNING)

    props = people["other"].get(f"/schedule?date={tomorrow().isoformat()}").context["booking_props"]

    assert [court["label"] for court in props["courts"]] == ["Hall", "Squash", "Centre"]
    assert props["dateLabel"] == days.day(tomorrow())


def test_a_signed_out_visitor_reads_free_cells_as_text_without_the_island(people, booked):
    html = page(people["anonymous"])

    assert "data-sheet-slot" not in html
    assert 'data-island="schedule"' not in html


def test_the_page_links_the_days_and_weeks_around_keeping_the_type(client):
    CourtFactory(type="Tennis")
    day = tomorrow()

    html = client.get(f"/schedule?date={day.isoformat()}&type=Tennis").content.decode()

    links = {
        label: href for href, label in re.findall(r'<a class="btn btn-sm" href="([^"]+)">([^<]+)</a>', html)
    }
    assert links == {
        label: f"?date={(day + timedelta(days=days)).isoformat()}&amp;type=Tennis"
        for label, days in [("Previous week", -7), ("Previous day", -1), ("Next day", 1), ("Next week", 7)]
    }


def test_the_type_filter_keeps_the_courts_of_that_type(people, booked):
    assert list(cells(page(people["anonymous"], "&type=Badminton"))) == ["Hall"]


def test_without_a_day_the_page_shows_today(client):
    CourtFactory()

    html = client.get("/schedule").content.decode()

    assert f'value="{timezone.localdate().isoformat()}"' in html
    assert f"Courts on {timezone.localdate():%A %-d %B %Y}" in html


def test_a_bad_day_or_type_is_said_under_its_field_and_shows_todays_sheet_of_every_type(client):
    CourtFactory(name="Grass", type="Tennis")

    html = client.get("/schedule?date=soon&type=Polo").content.decode()

    assert "Enter a valid date." in html
    assert "Select a valid choice. Polo is not one of the available choices." in html
    assert f"Courts on {timezone.localdate():%A %-d %B %Y}" in html
    assert list(cells(html)) == ["Grass"]


def test_with_no_open_court_the_page_says_so(client):
    assert "No courts are open for booking yet." in client.get("/schedule").content.decode()


@pytest.mark.parametrize("kind", ["anonymous", "admin"])
def test_the_page_costs_the_same_queries_for_2_courts_as_for_20(people, kind):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            page(people[kind])
        return len(captured)

    def add_courts(count: int) -> None:
        for _ in range(count):
            make_booking(court=CourtFactory(slots=MORNING), slots=MORNING[:1])

    add_courts(2)
    few = queries()
    add_courts(18)

    assert queries() == few


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_a_day_beyond_the_calendars_reach_is_said_under_its_field_not_a_server_error(client, day):
    CourtFactory()

    response = client.get(f"/schedule?date={day}")

    assert response.status_code == 200
    assert "Choose a day within two years of today." in response.content.decode()
    assert f"Courts on {timezone.localdate():%A %-d %B %Y}" in response.content.decode()


def test_a_club_of_many_courts_reads_its_sheet_a_page_of_courts_at_a_time(client, settings):
    settings.SCHEDULE_COURTS_PER_PAGE = 2
    for name in ["Court 1", "Court 2", "Court 3"]:
        CourtFactory(name=name, type="Tennis", slots=MORNING)
    day = tomorrow().isoformat()

    first = client.get(f"/schedule?date={day}&type=Tennis").content.decode()
    second = client.get(f"/schedule?date={day}&type=Tennis&page=2").content.decode()

    assert list(cells(first)) == ["Court 1", "Court 2"]
    assert list(cells(second)) == ["Court 3"]
    assert f'href="?date={day}&amp;type=Tennis&amp;page=2"' in first
    # Another day's sheet opens on the same page of courts.
    next_day = (tomorrow() + timedelta(days=1)).isoformat()
    assert f'href="?date={next_day}&amp;type=Tennis&amp;page=2">Next day</a>' in second


# --- the cells of one caller: their waitlist, a slot held for them, a visitor's --------------------


def test_a_visitors_free_cell_says_sign_in_to_book_and_leads_back_to_the_sheet(people, booked):
    html = page(people["anonymous"])

    assert cells(html)["Centre"][1] == "Free Sign in to book (Centre, 09:00-10:00)"
    back = f"/login?next=/schedule%3Fdate%3D{tomorrow().isoformat()}"
    assert f'<a class="link block text-xs" href="{back}">Sign in to book' in html
    assert "Sign in to book" not in page(people["other"])


def test_a_person_on_a_cells_waitlist_reads_so_with_leave_after_a_reload(people, booked):
    bob = User.objects.get(email="bob@example.com")
    place = waitlist_join(user=bob, court=booked.court, date=tomorrow(), slot=MORNING[0])

    html = page(people["other"])

    assert cells(html)["Centre"][0] == "On the waitlist Leave (Centre, 08:00-09:00)"
    assert f'data-sheet-leave="{place.pk}"' in html
    assert "data-sheet-join-court" not in html
    # Another person still may join the line.
    assert cells(page(people["member"]))["Centre"][0] == "Taken Join waitlist (Centre, 08:00-09:00)"


def test_a_freed_slot_reads_held_for_you_to_the_first_in_line_and_taken_to_the_others(people, booked):
    bob = User.objects.get(email="bob@example.com")
    place = waitlist_join(user=bob, court=booked.court, date=tomorrow(), slot=MORNING[0])
    booking_cancel(booking=booked, by=booked.user)
    waitlist_offer(court_id=booked.court_id, date=tomorrow(), slots=MORNING[:1])
    place.refresh_from_db()
    until = timezone.localtime(place.offer_expires_at).strftime("%H:%M")  # in the club's time zone

    html = page(people["other"])

    assert cells(html)["Centre"][0] == f"Held for you until {until} (Centre, 08:00-09:00)"
    assert f'data-sheet-court="{booked.court_id}" data-sheet-slot="08:00-09:00"' in html  # to book it
    for kind in ["owner", "member"]:
        assert cells(page(people[kind]))["Centre"][0] == "Taken Join waitlist (Centre, 08:00-09:00)"
    assert cells(page(people["anonymous"]))["Centre"][0] == "Taken"


def test_the_page_costs_the_same_queries_however_many_waitlist_places_and_offers(people):
    bob = User.objects.get(email="bob@example.com")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            page(people["other"])
        return len(captured)

    def add_courts(count: int) -> None:
        for _ in range(count):
            court = CourtFactory(slots=MORNING)
            booking = make_booking(court=court, slots=MORNING)
            for slot in MORNING:
                waitlist_join(user=bob, court=court, date=tomorrow(), slot=slot)
            booking_cancel(booking=booking, by=booking.user)
            make_booking(court=court, slots=MORNING[1:])  # the second slot, taken again at once
            waitlist_offer(court_id=court.pk, date=tomorrow(), slots=MORNING)

    add_courts(2)
    few = queries()
    add_courts(18)

    assert queries() == few
    html = page(people["other"])
    assert (html.count("Held for you until"), html.count("data-sheet-leave=")) == (20, 20)
