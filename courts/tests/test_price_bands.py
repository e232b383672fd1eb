"""Peak and off-peak prices: a court's price bands, what a slot costs, the court API's bands, and
the pages that show them (docs/rules.md, Prices)."""

import re
from datetime import date as Date
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.forms import inlineformset_factory
from django.http import QueryDict

from accounts.models import User
from audit.models import AuditEntry
from bookings.models import Booking
from bookings.schedule import day_sheet
from bookings.services import booking_price, booking_request
from bookings.tests.factories import lift_hour_limits, tomorrow
from courts.admin import PriceBandForm, PriceBandFormSet, price_bands
from courts.models import Court, PriceBand
from courts.pricing import slot_prices
from courts.services import court_create, court_update
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db

WEEKDAYS, WEEKENDS = [0, 1, 2, 3, 4], [5, 6]
EVENING = ["16:00-17:00", "17:00-18:00", "20:00-21:00", "21:00-22:00"]
MONDAY = Date(2026, 6, 1)
SATURDAY = Date(2026, 6, 6)
EVENINGS_BAND = {"weekdays": WEEKDAYS, "starts": "17:00", "ends": "21:00", "price": "30.00"}
EVENINGS_SHOWN = {**EVENINGS_BAND, "membersOnly": False}  # as the API answers it
NEW_COURT = {
    "name": "North Court",
    "type": "Tennis",
    "price": "20.00",
    "image": "https://images.example.com/north.jpg",
    "slots": EVENING,
    "priceBands": [EVENINGS_BAND, {"weekdays": WEEKENDS, "starts": "08:00", "ends": "22:00", "price": "35"}],
}


def peak_court(**fields) -> Court:
    """A court at $20 a slot, $30 on weekday evenings from 17:00 until 21:00."""
    court = CourtFactory(price=Decimal("20.00"), slots=EVENING, **fields)
    PriceBand.objects.create(
        court=court, weekdays=WEEKDAYS, starts=time(17), ends=time(21), price=Decimal("30.00")
    )
    return Court.objects.get(pk=court.pk)


def next_day(weekday: int) -> Date:
    """The first day from tomorrow that falls on `weekday` (Monday 0): open to anyone's booking."""
    day = tomorrow()
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return day


# --- What a slot costs -----------------------------------------------------------------------------


def test_a_slot_starting_at_the_bands_start_is_peak_and_one_starting_at_its_end_is_not():
    court = peak_court()

    prices = slot_prices(court, MONDAY, EVENING)

    assert prices == [Decimal("20.00"), Decimal("30.00"), Decimal("30.00"), Decimal("20.00")]


def test_a_weekday_band_leaves_the_weekend_at_the_courts_own_price():
    court = peak_court()
    PriceBand.objects.create(
        court=court, weekdays=WEEKENDS, starts=time(8), ends=time(12), price=Decimal("25.00")
    )
    court = Court.objects.get(pk=court.pk)

    assert slot_prices(court, SATURDAY, EVENING) == [Decimal("20.00")] * 4
    assert slot_prices(court, SATURDAY, ["08:00-09:00", "11:00-12:00", "12:00-13:00"]) == [
        Decimal("25.00"),
        Decimal("25.00"),
        Decimal("20.00"),
    ]


def test_a_courts_bands_are_read_once_for_all_its_slots(django_assert_num_queries):
    court = peak_court()

    with django_assert_num_queries(1):
        slot_prices(court, MONDAY, EVENING)
        booking_price(court=court, date=MONDAY, slots=EVENING)


def test_a_booking_mixing_peak_and_off_peak_slots_costs_each_slots_price():
    court = peak_court()
    ada = User.objects.create_user("ada@example.com")
    lift_hour_limits()  # four hours in one request

    booking = booking_request(user=ada, court=court, date=next_day(0), slots=EVENING)

    assert booking.price == Decimal("100.00")  # 20 + 30 + 30 + 20


def test_a_weekend_booking_of_the_same_slots_costs_the_courts_price():
    court = peak_court()
    ada = User.objects.create_user("ada@example.com")

    booking = booking_request(user=ada, court=court, date=next_day(5), slots=EVENING[1:3])

    assert booking.price == Decimal("40.00")


def test_a_price_sent_from_the_courts_own_price_is_refused_with_the_servers(people):
    court = peak_court()
    body = {
        "userEmail": "ada@example.com",
        "courtId": court.pk,
        "courtName": court.name,
        "price": "40.00",  # two slots at the court's own price, though both are peak
        "slots": EVENING[1:3],
        "date": next_day(2).isoformat(),
    }

    response = people["owner"].post("/api/bookings", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"price": ["The price is 60.00, not 40.00."]}
    assert Booking.objects.count() == 0


def test_the_peak_price_sent_by_the_client_is_accepted(people):
    court = peak_court()
    body = {
        "userEmail": "ada@example.com",
        "courtId": court.pk,
        "courtName": court.name,
        "price": "80.00",
        "slots": EVENING[:3],
        "date": next_day(2).isoformat(),
    }

    response = people["owner"].post("/api/bookings", body, content_type="application/json")

    assert response.status_code == 201
    assert response.json()["price"] == "80.00"


# --- Which bands a court may have ------------------------------------------------------------------


def band(weekdays, starts, ends, price="30.00") -> dict:
    return {"weekdays": weekdays, "starts": time(*starts), "ends": time(*ends), "price": Decimal(price)}


def test_bands_that_share_a_day_and_a_time_are_refused():
    court = CourtFactory()

    with pytest.raises(ValidationError) as refused:
        court_update(court=court, price_bands=[band([0, 1], (17,), (21,)), band([1, 2], (20,), (22,))])

    assert refused.value.message_dict == {
        "priceBands": [
            "The bands 17:00-21:00 and 20:00-22:00 overlap on Tuesday: a slot can have one price only."
        ]
    }
    assert not PriceBand.objects.exists()


def test_bands_that_meet_or_fall_on_other_days_are_accepted():
    court = court_update(
        court=CourtFactory(),
        price_bands=[band([0], (17,), (21,)), band([0], (21,), (23,)), band([1], (18,), (22,))],
    )

    assert [(b.weekdays, b.starts, b.ends) for b in Court.objects.get(pk=court.pk).bands] == [
        ([0], time(17), time(21)),
        ([1], time(18), time(22)),
        ([0], time(21), time(23)),
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (band([], (17,), (21,)), "Band 1: weekdays: Choose one day at least."),
        (band([7], (17,), (21,)), "Band 1: weekdays: Choose the days"),
        (band([True], (17,), (21,)), "Band 1: weekdays: Choose the days"),
        (band([1, 1], (17,), (21,)), "Band 1: weekdays: Each day can be chosen once."),
        (band([1], (21,), (17,)), "Band 1: A band ends after it starts."),
        (band([1], (17,), (17,)), "Band 1: A band ends after it starts."),
        (band([1], (17,), (21,), "0"), "Band 1: price:"),
    ],
)
def test_a_bad_band_is_refused_under_price_bands(bad, message):
    with pytest.raises(ValidationError) as refused:
        court_update(court=CourtFactory(), price_bands=[bad])

    [said] = refused.value.message_dict["priceBands"]
    assert said.startswith(message)


def test_updating_other_fields_keeps_the_bands_and_an_empty_list_removes_them():
    court = peak_court()

    court_update(court=court, name="Renamed")
    assert PriceBand.objects.filter(court=court).count() == 1

    court_update(court=court, price_bands=[])
    assert not PriceBand.objects.filter(court=court).exists()
    assert court.bands == []


def test_django_admins_bands_are_refused_when_they_overlap():
    court = CourtFactory()
    forms = inlineformset_factory(Court, PriceBand, form=PriceBandForm, formset=PriceBandFormSet, extra=0)
    data = {"price_bands-TOTAL_FORMS": "2", "price_bands-INITIAL_FORMS": "0"}
    for n, (days, starts, ends) in enumerate([(["0", "1"], "17:00", "21:00"), (["1"], "18:00", "19:00")]):
        data |= {
            f"price_bands-{n}-starts": starts,
            f"price_bands-{n}-ends": ends,
            f"price_bands-{n}-price": "30",
        }
        data[f"price_bands-{n}-weekdays"] = days
    query = QueryDict(mutable=True)
    for key, value in data.items():
        query.setlist(key, value if isinstance(value, list) else [value])

    formset = forms(query, instance=court)

    assert not formset.is_valid()
    assert "overlap on Tuesday" in formset.non_form_errors()[0]


def test_django_admin_marks_a_band_members_only():
    court = CourtFactory()
    forms = inlineformset_factory(Court, PriceBand, form=PriceBandForm, formset=PriceBandFormSet, extra=0)
    query = QueryDict(mutable=True)
    fields = {"TOTAL_FORMS": "1", "INITIAL_FORMS": "0", "0-starts": "08:00", "0-ends": "10:00"}
    for key, value in (fields | {"0-price": "25", "0-members_only": "on"}).items():
        query[f"price_bands-{key}"] = value
    query.setlist("price_bands-0-weekdays", ["5", "6"])

    formset = forms(query, instance=court)

    assert formset.is_valid(), formset.errors
    court_update(court=court, price_bands=price_bands(formset))
    assert PriceBand.objects.get(court=court).members_only is True


# --- The court API ---------------------------------------------------------------------------------


def test_only_admins_add_and_change_a_courts_bands(caller):
    kind, client = caller
    court = CourtFactory()
    expected = {"anonymous": 401, "user": 403, "member": 403, "admin": None}[kind]

    created = client.post("/api/courts", NEW_COURT, content_type="application/json")
    changed = client.patch(
        f"/api/courts/{court.pk}", {"priceBands": [EVENINGS_BAND]}, content_type="application/json"
    )

    if expected:
        assert (created.status_code, changed.status_code) == (expected, expected)
        assert not PriceBand.objects.exists()
        return
    assert (created.status_code, changed.status_code) == (201, 200)
    assert created.json()["priceBands"] == [
        {"weekdays": WEEKENDS, "starts": "08:00", "ends": "22:00", "price": "35.00", "membersOnly": False},
        EVENINGS_SHOWN,
    ]
    assert changed.json()["priceBands"] == [EVENINGS_SHOWN]
    assert PriceBand.objects.count() == 3


def test_the_court_list_says_each_courts_bands_and_a_change_to_them_at_once(client):
    court = peak_court()
    CourtFactory(name="Plain")

    listed = {c["name"]: c["priceBands"] for c in client.get("/api/courts").json()}
    PriceBand.objects.create(court=court, weekdays=[6], starts=time(8), ends=time(9), price=Decimal("22"))
    relisted = {c["name"]: c["priceBands"] for c in client.get("/api/courts").json()}

    assert listed == {court.name: [EVENINGS_SHOWN], "Plain": []}
    assert relisted[court.name] == [
        {"weekdays": [6], "starts": "08:00", "ends": "09:00", "price": "22.00", "membersOnly": False},
        EVENINGS_SHOWN,
    ]


def test_an_admin_keeps_a_band_for_members_and_anyone_reads_it(people):
    court = CourtFactory()
    members = {
        "weekdays": WEEKENDS,
        "starts": "08:00",
        "ends": "10:00",
        "price": "25.00",
        "membersOnly": True,
    }

    changed = people["admin"].patch(
        f"/api/courts/{court.pk}", {"priceBands": [members, EVENINGS_BAND]}, content_type="application/json"
    )
    refused = people["member"].patch(
        f"/api/courts/{court.pk}", {"priceBands": [EVENINGS_BAND]}, content_type="application/json"
    )

    assert changed.status_code == 200
    assert (refused.status_code, PriceBand.objects.filter(members_only=True).count()) == (403, 1)
    listed = people["anonymous"].get("/api/courts").json()[0]["priceBands"]
    assert listed == [members, EVENINGS_SHOWN]
    summary = AuditEntry.objects.get(action="court.update").summary
    assert "weekends 08:00-10:00: 25.00 (members only)" in summary


@pytest.mark.parametrize(
    ("bands", "said"),
    [
        ([{**EVENINGS_BAND, "weekdays": [7]}], "Band 1: weekdays:"),
        ([{**EVENINGS_BAND, "weekdays": []}], "Band 1: weekdays:"),
        ([EVENINGS_BAND, {**EVENINGS_BAND, "starts": "25:00"}], "Band 2: starts:"),
        ([{**EVENINGS_BAND, "ends": "16:00"}], "Band 1: A band ends after it starts."),
        ([{**EVENINGS_BAND, "price": "0"}], "Band 1: price: The price must be a positive number."),
        ([{**EVENINGS_BAND, "price": "ten"}], "Band 1: price:"),
        ([EVENINGS_BAND, {**EVENINGS_BAND, "starts": "20:00", "ends": "22:00"}], "The bands 17:00-21:00"),
        ("17:00-21:00", "Expected a list"),
    ],
)
def test_bad_bands_answer_400_with_a_message_under_price_bands(sign_in_as, bands, said):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    response = admin.post("/api/courts", {**NEW_COURT, "priceBands": bands}, content_type="application/json")

    assert response.status_code == 400
    assert list(response.json()) == ["priceBands"]
    [message] = response.json()["priceBands"]
    assert message.startswith(said), message
    assert not Court.objects.exists()


def test_listing_courts_with_bands_costs_two_queries_however_many(client, django_assert_num_queries):
    for _ in range(2):
        peak_court()
    with django_assert_num_queries(2):  # the slice of courts, their bands
        assert len(client.get("/api/courts").json()) == 2

    for _ in range(10):
        court = peak_court()
        PriceBand.objects.create(court=court, weekdays=[6], starts=time(8), ends=time(9), price=Decimal(22))
    with django_assert_num_queries(2):
        body = client.get("/api/courts", {"limit": 100}).json()

    assert len(body) == 12
    assert sum(len(court["priceBands"]) for court in body) == 22


def test_manage_courts_lists_the_bands_in_a_constant_number_of_queries(
    sign_in_as, django_assert_max_num_queries
):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    peak_court()
    with django_assert_max_num_queries(8) as few:
        admin.get("/dashboard/manage-courts")
    for _ in range(6):
        peak_court()
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = admin.get("/dashboard/manage-courts")

    assert response.status_code == 200
    assert '"priceBands"' in response.content.decode()


def test_court_create_with_bands_makes_them():
    court = court_create(
        name="South",
        type="Tennis",
        price=Decimal(20),
        image="/static/img/courts/tennis.svg",
        slots=EVENING,
        price_bands=[band(WEEKDAYS, (17,), (21,))],
    )

    assert slot_prices(Court.objects.get(pk=court.pk), MONDAY, EVENING[:2]) == [Decimal(20), Decimal(30)]


# --- The pages ---------------------------------------------------------------------------------------


def test_the_courts_page_names_the_peak_prices(client):
    peak_court(name="Centre")

    html = client.get("/courts").content.decode()

    assert "Price per session: $20.00 " in html
    assert "(peak: $30.00 weekdays 17:00-21:00)" in " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_courts_page_names_the_members_only_hours(client):
    court = peak_court(name="Centre")
    PriceBand.objects.create(
        court=court, weekdays=WEEKENDS, starts=time(8), ends=time(10), price=Decimal(20), members_only=True
    )

    text = " ".join(re.sub(r"<[^>]+>", " ", client.get("/courts").content.decode()).split())

    assert "(off-peak, members only: $20.00 weekends 08:00-10:00; peak: $30.00 weekdays 17:00-21:00)" in text


def test_the_courts_page_costs_the_same_queries_with_bands(client, django_assert_num_queries):
    peak_court()
    # the count for the paginator, one page of courts, their bands, and whether a plan is on sale
    # (the navbar links Membership then)
    with django_assert_num_queries(4):
        client.get("/courts")
    for _ in range(5):
        peak_court()
    with django_assert_num_queries(4):
        client.get("/courts")


def test_the_day_sheet_prices_its_free_peak_cells_in_two_queries(django_assert_num_queries):
    for _ in range(3):
        peak_court()
    CourtFactory(name="Plain", slots=EVENING)

    with django_assert_num_queries(2):  # the open courts with their bands, the slots held that day
        sheet = day_sheet(date=next_day(0))
    weekend = day_sheet(date=next_day(5))

    peak = [None, Decimal("30.00"), Decimal("30.00"), None]
    prices = {row.court.name: [cell.price for cell in row.cells] for row in sheet.rows}
    assert prices == {name: [None] * 4 if name == "Plain" else peak for name in prices}
    assert len(prices) == 4
    assert all(cell.price is None for row in weekend.rows for cell in row.cells)


def test_the_day_sheet_page_shows_a_peak_cells_price_and_gives_the_island_its_prices(sign_in_as):
    court = peak_court(name="Centre")
    day = next_day(1)

    html = sign_in_as("ada@example.com").get("/schedule", {"date": day.isoformat()}).content.decode()

    assert html.count("data-peak-price") == 2
    assert '$30.00<span class="sr-only"> peak price</span>' in html
    props = f'"id": {court.pk}, "label": "Centre", "price": "20.00", "peak": {{"17:00-18:00": "30.00", '
    assert props in html


def test_a_day_sheet_for_a_weekend_day_shows_no_peak_price(client):
    peak_court()
    day = next_day(6)

    assert "data-peak-price" not in client.get("/schedule", {"date": day.isoformat()}).content.decode()
