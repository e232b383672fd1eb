"""Names, reasons and descriptions are one line of printable characters wherever they are written
(the API, the site's forms, Django admin); messages may break lines, and have no other control
character either. A refusal is a 400 with a message under its field, and nothing is written."""

import pytest

from accounts.models import User
from audit.models import AuditEntry
from bookings.models import Block, Booking
from bookings.tests.factories import make_booking, tomorrow
from content.models import Announcement, ContactMessage
from courts.models import Court
from courts.tests.factories import CourtFactory, admin_form
from payments.models import Coupon

pytestmark = pytest.mark.django_db

ONE_LINE = "Write it on one line, without line breaks, tabs or other control characters."
LINES = "Remove the control characters: only line breaks and tabs may stand between the words."
CRLF = "Atk CRLF\r\nBcc: victim@example.com"
COURT = {"name": "Centre", "type": "Tennis", "price": "20.00", "image": "/static/img/logo.svg", "slots": []}


def api(client, method: str, path: str, body: dict):
    return getattr(client, method)(path, body, content_type="application/json")


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", CRLF), ("name", "Centre\tcourt"), ("type", "Tennis\x1b"), ("name", "Centre\u2028court")],
)
def test_a_court_named_with_control_characters_is_refused(people, field, value):
    response = api(people["admin"], "post", "/api/courts", {**COURT, field: value})

    assert response.status_code == 400
    assert response.json() == {field: [ONE_LINE]}
    assert not Court.objects.exists()


def test_a_block_reason_with_a_line_break_is_refused(people):
    court = CourtFactory(slots=["08:00-09:00"])
    body = {"courtId": court.pk, "date": tomorrow().isoformat(), "slots": ["08:00-09:00"], "reason": CRLF}

    response = api(people["admin"], "post", "/api/blocks", body)

    assert response.status_code == 400
    assert response.json() == {"reason": [ONE_LINE]}
    assert not Block.objects.exists()


def test_a_rejection_reason_with_a_line_break_is_refused(people):
    booking = make_booking(user=User.objects.get(email="ada@example.com"), court=CourtFactory())

    response = api(people["admin"], "patch", f"/api/bookings/reject/{booking.pk}", {"reason": CRLF})

    assert response.status_code == 400
    assert response.json() == {"reason": [ONE_LINE]}
    booking.refresh_from_db()
    assert booking.status == Booking.Status.PENDING


@pytest.mark.parametrize(("field", "value"), [("code", "SPRING\r\n20"), ("description", CRLF)])
def test_a_coupon_with_control_characters_is_refused(people, field, value):
    body = {"code": "SPRING", "discount": 10, field: value}

    response = api(people["admin"], "post", "/api/coupons", body)

    assert response.status_code == 400
    assert response.json() == {field: [ONE_LINE]}
    assert not Coupon.objects.exists()


def test_an_announcement_may_break_lines_and_nothing_else(people):
    refused = api(people["admin"], "post", "/api/announcements", {"text": "Open\x1b[2J day"})
    taken = api(people["admin"], "post", "/api/announcements", {"text": "Open day.\r\n\tAll welcome."})

    assert refused.status_code == 400
    assert refused.json() == {"text": [LINES]}
    assert taken.status_code == 201
    assert Announcement.objects.get().text == "Open day.\r\n\tAll welcome."


def test_a_name_with_a_line_break_is_refused_by_the_profile_api(people):
    response = api(people["owner"], "post", "/api/users", {"name": CRLF})

    assert response.status_code == 400
    assert response.json() == {"name": [ONE_LINE]}
    assert User.objects.get(email="ada@example.com").name != CRLF


def test_a_name_with_a_line_break_is_refused_under_its_field_on_the_profile_page(sign_in_as):
    client = sign_in_as("ada@example.com", name="Ada Lovelace")

    response = client.post("/dashboard/profile", {"name": CRLF, "image": ""})

    assert response.status_code == 200
    assert response.context["form"].errors == {"name": [ONE_LINE]}
    assert User.objects.get().name == "Ada Lovelace"


def test_a_support_message_keeps_its_line_breaks_and_refuses_a_name_with_one(client):
    body = {"name": "Ada", "email": "ada@example.com", "message": "The net is torn.\r\nCourt 2."}

    refused = client.post("/support", {**body, "name": CRLF})
    sent = client.post("/support", body)

    assert refused.context["form"].errors == {"name": [ONE_LINE]}
    assert sent.status_code == 302
    assert ContactMessage.objects.get().message == "The net is torn.\r\nCourt 2."


def test_django_admin_refuses_a_court_name_with_a_line_break_under_its_field(people):
    court = CourtFactory.build(name=CRLF)

    response = people["admin"].post("/admin/courts/court/add/", admin_form(court))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name"] == [ONE_LINE]
    assert not Court.objects.exists()
    assert not AuditEntry.objects.exists()
