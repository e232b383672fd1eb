"""API lists come a slice at a time (kernel/pagination.py): the bare JSON array, `?limit=&offset=`,
the whole list's size in X-Total-Count and the neighbouring slices in a Link header."""

import re

import pytest

from accounts.models import User
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db


def links(response) -> dict[str, str]:
    """The Link header as {rel: query string}."""
    return {
        rel: re.sub(r"^https?://[^/?]+", "", target)
        for target, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response["Link"])
    }


@pytest.fixture
def seven_courts():
    return [CourtFactory(type="Tennis", name=f"Court {number}") for number in range(1, 8)]


def test_a_slice_has_its_rows_the_total_and_links_to_its_neighbours(client, seven_courts):
    response = client.get("/api/courts", {"limit": 3, "offset": 3})

    assert response.status_code == 200
    assert [court["name"] for court in response.json()] == ["Court 4", "Court 5", "Court 6"]
    assert response["X-Total-Count"] == "7"
    assert links(response) == {
        "first": "/api/courts?limit=3&offset=0",
        "prev": "/api/courts?limit=3&offset=0",
        "next": "/api/courts?limit=3&offset=6",
        "last": "/api/courts?limit=3&offset=6",
    }


def test_the_first_and_last_slices_have_no_prev_and_no_next(client, seven_courts):
    first = client.get("/api/courts", {"limit": 5})
    last = client.get("/api/courts", {"limit": 5, "offset": 5})

    assert set(links(first)) == {"first", "next", "last"}
    assert [court["name"] for court in last.json()] == ["Court 6", "Court 7"]
    assert set(links(last)) == {"first", "prev", "last"}
    assert last["X-Total-Count"] == "7"


def test_without_a_limit_a_list_gives_25_rows_and_at_most_100_when_asked(people):
    User.objects.bulk_create(User(email=f"person{number}@example.com") for number in range(120))

    default = people["admin"].get("/api/users")
    most = people["admin"].get("/api/users", {"limit": 100})

    assert len(default.json()) == 25
    assert len(most.json()) == 100
    assert default["X-Total-Count"] == most["X-Total-Count"] == str(User.objects.count())


def test_the_filters_are_kept_in_the_links(people):
    User.objects.bulk_create(User(email=f"member{number}@example.com", role="member") for number in range(3))

    response = people["admin"].get("/api/users", {"role": "member", "limit": 2})

    assert response["X-Total-Count"] == "4"  # the three, and Mia
    assert "role=member" in links(response)["next"]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"limit": "lots"}, "limit", "A valid integer is required."),
        ({"limit": 0}, "limit", "Ensure this value is greater than or equal to 1."),
        ({"limit": 101}, "limit", "Ensure this value is less than or equal to 100."),
        ({"offset": -1}, "offset", "Ensure this value is greater than or equal to 0."),
        ({"offset": 10**19}, "offset", "Ensure this value is less than or equal to 1000000000."),
    ],
)
def test_a_bad_limit_or_offset_is_a_400_that_says_why(client, query, field, message):
    response = client.get("/api/coupons", query)

    assert response.status_code == 400
    assert response.json() == {field: [message]}


def test_an_offset_past_the_end_is_an_empty_slice_with_the_total(client, seven_courts):
    response = client.get("/api/courts", {"offset": 50})

    assert response.json() == []
    assert response["X-Total-Count"] == "7"
    assert links(response)["prev"] == "/api/courts?limit=25&offset=0"


def test_a_lists_total_is_counted_every_time(people):
    User.objects.bulk_create(User(email=f"person{number}@example.com") for number in range(3))
    assert people["admin"].get("/api/users", {"limit": 2})["X-Total-Count"] == "7"

    User.objects.filter(email="ada@example.com").delete()

    assert people["admin"].get("/api/users", {"limit": 2})["X-Total-Count"] == "6"
