from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from icalendar import Calendar

from accounts.models import User
from bookings.calendar import booking_ics
from bookings.models import Booking, BookingStatusChange, CalendarFeed
from bookings.series import series_approve, series_book
from bookings.services import booking_confirm
from bookings.tests.factories import make_booking, tomorrow
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status

PARIS = ZoneInfo("Europe/Paris")
KINDS = ["owner", "other", "member", "admin"]


@pytest.fixture(autouse=True)
def _club_in_paris(settings):
    """A time zone that is not UTC, so that the events carry a TZID."""
    settings.TIME_ZONE = "Europe/Paris"
    settings.CLUB_CONTACT = {**settings.CLUB_CONTACT, "email": "hello@club.example"}


def ada() -> User:
    return User.objects.get_or_create(email="ada@example.com")[0]


def confirmed(user: User | None = None, **booking) -> Booking:
    """A booking confirmed the way a payment confirms it."""
    approved = make_booking(user=user or ada(), status=Status.APPROVED, **booking)
    return booking_confirm(booking=approved, by=approved.user)


def cancel_confirmed(booking: Booking) -> None:
    """No service cancels a confirmed booking (docs/rules.md): the change is written as the
    services write every change, a new status and its history row, which is what the feed reads."""
    Booking.objects.filter(pk=booking.pk).update(status=Status.CANCELLED)
    BookingStatusChange.objects.create(
        booking=booking, from_status=Status.CONFIRMED, to_status=Status.CANCELLED
    )


def feed_path(client: Client) -> str:
    return client.get("/api/calendar").json()["url"].removeprefix("http://testserver")


def events(response) -> dict:
    """The served feed's events, by UID."""
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return {str(event.uid): event for event in Calendar.from_ical(response.content).events}


# --- The feed ----------------------------------------------------------------------------------


def test_the_feed_has_each_confirmed_booking_of_its_owner_in_the_clubs_time_zone(people, client):
    court = CourtFactory(name="Centre Court", slots=["08:00-09:00", "09:00-10:00", "18:00-19:00"])
    booking = confirmed(court=court, slots=["08:00-09:00", "09:00-10:00"])
    make_booking(user=ada(), court=court, slots=["18:00-19:00"], status=Status.APPROVED)
    confirmed(User.objects.get(email="bob@example.com"))

    served = client.get(feed_path(people["owner"]))  # a calendar app: no session

    calendar = Calendar.from_ical(served.content)
    (event,) = events(served).values()
    assert event.uid == f"booking-{booking.pk}@club.example"
    assert (event.start, event.end) == (
        datetime.combine(tomorrow(), datetime.min.time().replace(hour=8), PARIS),
        datetime.combine(tomorrow(), datetime.min.time().replace(hour=10), PARIS),
    )
    assert event["DTSTART"].params["TZID"] == event["DTEND"].params["TZID"] == "Europe/Paris"
    assert [timezone.tz_name for timezone in calendar.timezones] == ["Europe/Paris"]
    assert calendar.refresh_interval == timedelta(hours=1)
    assert calendar["X-PUBLISHED-TTL"] == "PT1H"
    assert event["LOCATION"].startswith("Centre Court, ")
    assert event["DESCRIPTION"] == f"Booking #{booking.pk}: 08:00–10:00."
    assert (event["STATUS"], event["SEQUENCE"]) == ("CONFIRMED", 0)


def test_a_series_is_in_the_feed_as_its_dates_each_an_event(people, client):
    court = CourtFactory(name="Centre Court", slots=["19:00-20:00"])
    series = series_book(
        user=ada(),
        court=court,
        slots=["19:00-20:00"],
        first_date=tomorrow(),
        every_weeks=1,
        last_date=tomorrow() + timedelta(weeks=2),
    )
    series_approve(series=series, by=User.objects.get(email="ann@example.com"))
    dates = list(series.occurrences.order_by("date"))
    for booking in dates[:2]:  # paid; the third waits for its payment
        booking_confirm(booking=booking, by=booking.user)

    served = events(client.get(feed_path(people["owner"])))

    assert sorted(served) == sorted(f"booking-{booking.pk}@club.example" for booking in dates[:2])
    starts = sorted(event.start.date() for event in served.values())
    assert starts == [tomorrow(), tomorrow() + timedelta(weeks=1)]
    assert {event["DESCRIPTION"].endswith("One date of a series.") for event in served.values()} == {True}


def test_a_cancelled_booking_stays_in_the_feed_as_cancelled_with_a_higher_sequence(people, client):
    booking = confirmed()
    path = feed_path(people["owner"])
    uid = f"booking-{booking.pk}@club.example"
    before = events(client.get(path))[uid]

    cancel_confirmed(booking)

    after = events(client.get(path))[uid]
    assert (before["STATUS"], after["STATUS"]) == ("CONFIRMED", "CANCELLED")
    assert after["SEQUENCE"] == before["SEQUENCE"] + 1


def test_bookings_never_confirmed_stay_out_of_the_feed(people, client):
    for status in (Status.PENDING, Status.APPROVED, Status.REJECTED, Status.CANCELLED, Status.EXPIRED):
        make_booking(user=ada(), status=status)

    assert events(client.get(feed_path(people["owner"]))) == {}


def test_the_feed_answers_304_while_it_is_unchanged_and_the_new_feed_once_it_changes(people, client):
    booking = confirmed()
    path = feed_path(people["owner"])
    first = client.get(path)

    again = client.get(path, headers={"If-None-Match": first["ETag"]})
    cancel_confirmed(booking)
    changed = client.get(path, headers={"If-None-Match": first["ETag"]})

    assert first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    assert "private" in first["Cache-Control"]
    assert (again.status_code, again.content) == (304, b"")
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_the_events_keep_their_uid_from_fetch_to_fetch_and_after_a_reset(people, client):
    booking = confirmed()
    first = events(client.get(feed_path(people["owner"])))

    people["owner"].post("/api/calendar/reset")
    confirmed(court=CourtFactory())

    assert f"booking-{booking.pk}@club.example" in first
    assert first.keys() < events(client.get(feed_path(people["owner"]))).keys()


def test_the_feed_costs_the_same_queries_for_2_bookings_as_for_20(people, client, django_assert_num_queries):
    path = feed_path(people["owner"])
    court = CourtFactory(slots=[f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(6, 22)])
    for slot in court.slots[:2]:
        confirmed(court=court, slots=[slot])
    with django_assert_num_queries(3):  # the feed and its owner, the bookings they play in, the bookings
        client.get(path)
    for slot in court.slots[2:]:
        confirmed(court=court, slots=[slot])

    with django_assert_num_queries(3):
        assert len(events(client.get(path))) == len(court.slots)


@pytest.mark.parametrize("secret", ["unknown-secret", "x" * 300, "not a secret", "..%2F..%2Fsecret"])
def test_an_unknown_secret_is_not_found(client, secret):
    CalendarFeed.objects.create(user=ada(), secret="the-real-one")

    assert client.get(f"/calendar/{secret}.ics").status_code == 404


def test_the_feed_is_only_read(people, client):
    path = feed_path(people["owner"])

    assert client.post(path).status_code == 405
    assert client.head(path).status_code == 200


# --- GET /api/calendar, POST /api/calendar/reset ------------------------------------------------


def test_a_signed_out_visitor_has_no_feed(people):
    assert people["anonymous"].get("/api/calendar").status_code == 401
    assert people["anonymous"].post("/api/calendar/reset").status_code == 401
    assert CalendarFeed.objects.count() == 0


def test_every_signed_in_person_gets_a_feed_of_their_own_and_the_same_one_each_time(people):
    urls = {kind: people[kind].get("/api/calendar").json()["url"] for kind in KINDS}

    assert all(
        url.startswith("http://testserver/calendar/") and url.endswith(".ics") for url in urls.values()
    )
    assert len(set(urls.values())) == len(KINDS)
    assert {kind: people[kind].get("/api/calendar").json()["url"] for kind in KINDS} == urls


@pytest.mark.parametrize("kind", KINDS)
def test_a_reset_gives_a_new_address_and_the_old_one_is_not_found(people, client, kind):
    old = feed_path(people[kind])
    others = {other: feed_path(people[other]) for other in KINDS if other != kind}

    reset = people[kind].post("/api/calendar/reset")

    new = reset.json()["url"].removeprefix("http://testserver")
    assert reset.status_code == 200
    assert new == feed_path(people[kind]) != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    assert {other: feed_path(people[other]) for other in others} == others


def test_a_reset_needs_the_csrf_token(people):
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = people["owner"].cookies
    old = feed_path(people["owner"])

    response = checked.post("/api/calendar/reset", content_type="application/json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert feed_path(people["owner"]) == old


def test_a_reset_ignores_whatever_body_it_is_sent(people):
    response = people["owner"].post("/api/calendar/reset", "{not json", content_type="application/json")

    assert response.status_code == 200
    assert response.json()["url"].endswith(".ics")


# --- One booking's .ics and the "Add to calendar" controls ---------------------------------------


def test_the_owner_downloads_a_confirmed_booking_as_an_ics_file(people):
    booking = confirmed()

    response = people["owner"].get(f"/dashboard/bookings/{booking.pk}/calendar.ics")

    assert response["Content-Disposition"] == f'attachment; filename="booking-{booking.pk}.ics"'
    assert list(events(response)) == [f"booking-{booking.pk}@club.example"]
    assert response.content == booking_ics(booking)


@pytest.mark.parametrize(
    ("kind", "status"), [("other", 404), ("member", 404), ("admin", 404), ("anonymous", 302)]
)
def test_nobody_else_downloads_a_persons_booking(people, kind, status):
    booking = confirmed()

    assert people[kind].get(f"/dashboard/bookings/{booking.pk}/calendar.ics").status_code == status


def test_a_booking_that_is_not_confirmed_has_no_ics_file(people):
    booking = make_booking(user=ada(), status=Status.APPROVED)

    assert people["owner"].get(f"/dashboard/bookings/{booking.pk}/calendar.ics").status_code == 404


def test_the_confirmed_bookings_page_adds_each_booking_to_a_calendar_and_subscribes_to_all(people):
    User.objects.filter(email="ada@example.com").update(role=User.Role.MEMBER)
    booking = confirmed()
    url = feed_path(people["owner"])

    html = people["owner"].get("/dashboard/confirmed-bookings").content.decode()

    assert f'href="/dashboard/bookings/{booking.pk}/calendar.ics" download>Add to calendar</a>' in html
    assert f'href="webcal://testserver{url}"' in html


def test_a_confirmed_bookings_own_page_has_the_calendar_links_for_its_owner_only(people):
    booking = confirmed()
    pending = make_booking(user=ada())
    ics = f"/dashboard/bookings/{booking.pk}/calendar.ics"

    mine = people["owner"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    admins = people["admin"].get(f"/dashboard/bookings/{booking.pk}").content.decode()
    waiting = people["owner"].get(f"/dashboard/bookings/{pending.pk}").content.decode()

    assert ics in mine
    assert "webcal://testserver/calendar/" in mine
    assert ics not in admins
    assert "webcal://" not in admins
    assert "Add to calendar" not in waiting


def test_booking_ics_is_one_event_in_a_calendar_of_its_own():
    booking = confirmed(court=CourtFactory(name="Glass Court"))

    calendar = Calendar.from_ical(booking_ics(booking))

    (event,) = calendar.events
    assert str(event["SUMMARY"]).startswith("Glass Court")
    assert event["DTSTART"].params["TZID"] == "Europe/Paris"


def test_a_court_named_with_a_line_break_makes_a_calendar_file_all_the_same(people):
    # As a court named before names refused control characters.
    booking = confirmed(court=CourtFactory(name="Atk CRLF\r\nBcc: victim@example.com"))

    response = people["owner"].get(f"/dashboard/bookings/{booking.pk}/calendar.ics")

    calendar = Calendar.from_ical(response.content)
    assert calendar.calendar_name == "Atk CRLF Bcc: victim@example.com at Sports Club"
    (event,) = calendar.events
    assert str(event["SUMMARY"]).endswith("Bcc: victim@example.com at Sports Club")  # an escaped line break
