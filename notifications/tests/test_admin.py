"""Django admin shows the messages, what waits and why, to admins only, and changes none."""

import pytest

from bookings.tests.factories import make_booking

pytestmark = pytest.mark.django_db


def test_admins_read_the_messages_and_may_not_change_them(people):
    make_booking()

    listing = people["admin"].get("/admin/notifications/notification/")

    assert listing.status_code == 200
    assert "booking_requested" in listing.content.decode()
    assert people["admin"].get("/admin/notifications/notification/add/").status_code == 403


@pytest.mark.parametrize("kind", ["anonymous", "owner", "member"])
def test_nobody_else_reads_them(people, kind):
    response = people[kind].get("/admin/notifications/notification/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"] or "/login" in response["Location"]
