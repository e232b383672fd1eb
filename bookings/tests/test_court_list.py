import re
from datetime import time
from decimal import Decimal

import pytest
from django.urls import reverse

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.models import PriceBand
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db

URL = reverse("bookings:courts")


def page_buttons(html: str) -> dict[str, str]:
    """The pagination controls as a person reads them: label → 'link' | 'disabled' | 'current'."""
    nav = re.search(r'<nav[^>]*aria-label="Pages".*?</nav>', html, re.S)
    if not nav:
        return {}
    controls = {}
    for _tag, attrs, label in re.findall(r"<(a|button)([^>]*)>\s*([^<]+?)\s*</\1>", nav.group(0)):
        controls[label] = (
            "disabled" if "disabled" in attrs else "current" if "aria-current" in attrs else "link"
        )
    return controls


def test_the_page_lists_each_court_with_its_type_price_and_a_book_button(client):
    CourtFactory(name="Centre Court", type="Tennis", price=Decimal("30"))

    response = client.get(URL)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Available Courts" in html
    assert "Tennis" in html
    assert "Centre Court" in html
    assert "Price per session: $30.00" in html
    assert "Book Now" in html
    assert 'alt="Centre Court, a tennis court"' in html


def test_book_now_sends_a_signed_out_visitor_to_log_in_and_back(client):
    CourtFactory()

    html = client.get(URL).content.decode()

    assert 'href="/login?next=/courts"' in html


def test_six_courts_fit_on_one_page_without_pagination(client):
    CourtFactory.create_batch(6)

    response = client.get(URL)

    assert len(response.context["page"].object_list) == 6
    assert page_buttons(response.content.decode()) == {}


def test_seven_courts_make_two_pages_prev_disabled_on_the_first(client):
    CourtFactory.create_batch(7)

    response = client.get(URL)

    assert len(response.context["page"].object_list) == 6
    assert page_buttons(response.content.decode()) == {
        "Prev": "disabled",
        "1": "current",
        "2": "link",
        "Next": "link",
    }


def test_the_second_page_holds_the_seventh_court_and_disables_next(client):
    courts = CourtFactory.create_batch(7)
    last = sorted(courts, key=lambda c: (c.type, c.name, c.id))[-1]

    response = client.get(URL, {"page": 2})

    assert list(response.context["page"].object_list) == [last]
    assert page_buttons(response.content.decode()) == {
        "Prev": "link",
        "1": "link",
        "2": "current",
        "Next": "disabled",
    }


@pytest.mark.parametrize("page", ["99", "-1", "0"])
def test_a_page_past_the_end_shows_the_last_page(client, page):
    CourtFactory.create_batch(7)

    response = client.get(URL, {"page": page})

    assert response.status_code == 200
    assert response.context["page"].number == 2


@pytest.mark.parametrize("page", ["abc", "", "1.5", "%00"])
def test_a_page_that_is_not_a_number_shows_the_first_page(client, page):
    CourtFactory.create_batch(7)

    response = client.get(URL, {"page": page})

    assert response.status_code == 200
    assert response.context["page"].number == 1


def test_with_no_courts_the_page_says_so(client):
    response = client.get(URL)

    assert response.status_code == 200
    assert "No courts are open for booking yet" in response.content.decode()


def test_the_page_costs_the_same_queries_for_six_courts_as_for_one(client, django_assert_num_queries):
    CourtFactory()
    # the count for the paginator, one page of courts, their bands, and whether a plan is on sale
    # (the navbar links Membership then)
    with django_assert_num_queries(4):
        client.get(URL)
    for court in CourtFactory.create_batch(5):  # with prices named peak or off-peak beside them
        PriceBand.objects.create(
            court=court, weekdays=[5, 6], starts=time(8), ends=time(12), price=court.price + 5
        )
    with django_assert_num_queries(4):
        assert "peak: $" in client.get(URL).content.decode()


def test_a_shipped_court_image_is_served_by_its_hashed_name_and_an_external_one_as_is(client):
    CourtFactory(name="Shipped", image="/static/img/courts/squash.svg")
    CourtFactory(name="External", image="https://images.example.com/court.jpg")

    html = client.get(URL).content.decode()

    assert re.search(r'<img src="/static/img/courts/squash\.[0-9a-f]{12}\.svg" alt="Shipped', html)
    assert '<img src="https://images.example.com/court.jpg" alt="External' in html


def test_manage_courts_hands_the_open_and_the_archived_courts_to_its_island(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    court = CourtFactory(name="Centre Court", type="Tennis")
    make_booking(court=CourtFactory(name="Busy Court", type="Tennis"))
    gone = CourtFactory(name="Gone", is_archived=True)

    response = admin.get("/dashboard/manage-courts")

    props = response.context["island_props"]
    assert [(c["name"], c["hasBookings"]) for c in props["courts"]] == [
        ("Busy Court", True),
        ("Centre Court", False),
    ]
    assert props["courts"][1]["url"] == f"/api/courts/{court.pk}"
    assert [(c["name"], c["restoreUrl"]) for c in props["archived"]] == [
        ("Gone", f"/api/courts/{gone.pk}/restore")
    ]
    assert props["createUrl"] == "/api/courts"
    assert re.fullmatch(r"/static/img/courts/placeholder\.[0-9a-f]{12}\.svg", props["imagePlaceholder"])
    assert 'data-island="courts-admin"' in response.content.decode()
    # What the court API accepts, for the form's inputs to say.
    assert props["bounds"]["name"] == {"required": True, "maxLength": 100}
    assert props["bounds"]["price"] == {"required": True, "min": "0.01", "max": "10000", "step": "0.01"}
    assert props["bounds"]["image"] == {"required": True, "maxLength": 500}
    assert props["bandBounds"]["price"] == props["bounds"]["price"]


def test_a_court_image_that_fails_to_load_has_a_placeholder_named(client):
    CourtFactory(name="Centre Court")

    html = client.get(URL).content.decode()

    assert re.search(
        r'data-fallback="/static/img/courts/placeholder\.[0-9a-f]{12}\.svg" '
        r'data-fallback-text="Centre Court: image unavailable"',
        html,
    )
    assert re.search(r'<script[^>]*type="module"[^>]*src="[^"]*/image-fallback-[^"]+\.js"', html)


def test_a_signed_in_visitor_gets_the_booking_island_with_this_pages_courts(sign_in_as):
    CourtFactory.create_batch(7)

    response = sign_in_as().get(URL)

    props = response.context["booking_props"]
    assert len(props["courts"]) == 6
    assert props["bookingsUrl"] == "/api/bookings"
    assert props["courts"][0]["availabilityUrl"].endswith("/availability")
    assert 'data-book-court="' in response.content.decode()


def test_the_booking_island_refuses_a_request_without_slots_in_the_servers_words(sign_in_as):
    court = CourtFactory()
    person = sign_in_as()

    props = person.get(URL).context["booking_props"]
    refused = person.post(
        "/api/bookings",
        {"courtId": court.pk, "date": props["maxDate"], "slots": []},
        content_type="application/json",
    )

    assert refused.status_code == 400
    assert props["noSlotsMessage"] in str(refused.json()["slots"])
