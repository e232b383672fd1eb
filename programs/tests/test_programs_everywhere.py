"""Series and programs where admins see the club's week together (docs/rules.md, The day sheet;
Reports; The ledger): the day sheet shows a program's slots as the program, with its page, and a
series' dates as such; a program's block is lifted only with the program; the reports count the
slots of series and programs apart, and the revenue of each program; the ledger shows
registrations as their own kind."""

import re
from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot
from bookings.series import series_book
from bookings.services import policy_update
from courts.models import Court
from courts.tests.factories import CourtFactory
from payments.models import Payment
from payments.tests.helpers import refunded
from programs.services import program_register
from programs.tests.factories import in_days, make_program

pytestmark = pytest.mark.django_db


@pytest.fixture
def week(people):
    """On one court: a clinic at 10:00 in five days, and Ada's weekly series at 09:00 from then."""
    court = CourtFactory(name="Centre", slots=["09:00-10:00", "10:00-11:00"])
    Court.objects.filter(pk=court.pk).update(created_at=timezone.now() - timedelta(days=30))
    program = make_program(by=User.objects.get(email="ann@example.com"), courts=[court])
    policy_update(advance_days_user=60)
    series = series_book(
        user=User.objects.get(email="ada@example.com"),
        court=court,
        slots=["09:00-10:00"],
        first_date=in_days(5),
        every_weeks=1,
        last_date=in_days(12),
    )
    return court, program, series


def cells(html: str) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def test_the_day_sheet_shows_a_programs_slots_as_the_program_and_a_series_date_as_one(people, week):
    _, program, _series = week

    html = people["admin"].get(f"/schedule?date={in_days(5)}").content.decode()

    assert f'href="/programs/{program.pk}">Clinic: Beginners&#x27; clinic</a>' in html
    assert "Pending · series" in cells(html)
    assert "data-sheet-unblock" not in html  # lifted with the program, not on its own
    answer = people["owner"].get(f"/api/schedule?date={in_days(5)}").json()
    [row] = answer["courts"]
    by_slot = {cell["slot"]: cell for cell in row["cells"]}
    assert (by_slot["10:00-11:00"]["state"], by_slot["10:00-11:00"]["programId"]) == ("program", program.pk)
    assert by_slot["09:00-10:00"]["series"] is True


def test_a_programs_block_is_lifted_only_by_calling_the_program_off(people, week):
    _, program, _ = week
    block = program.blocks.get()

    response = people["admin"].delete(f"/api/blocks/{block.pk}")

    assert response.status_code == 409
    assert "call the program off" in response.json()["detail"]
    assert BookedSlot.objects.filter(block=block).exists()


def table(html: str, testid: str) -> list[list[str]]:
    body = re.search(rf'data-testid="{testid}".*?</table>', html, re.S).group(0)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [[cells(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def test_the_reports_count_series_and_program_slots_apart_and_each_programs_revenue(people, week):
    _court, program, _ = week
    for n, email in enumerate(["ada@example.com", "mia@example.com"]):
        registration = program_register(program=program, user=User.objects.get(email=email))
        payment = Payment.objects.create(
            registration=registration,
            user=registration.user,
            amount=Decimal("20.00"),
            currency="usd",
            payment_intent_id=f"pi_program_{n}",
            status=Payment.Status.SUCCEEDED,
            paid_at=timezone.now(),
        )
    refunded(payment, "20.00", timezone.now())
    query = f"date_from={in_days(5)}&date_to={in_days(12)}"

    html = people["admin"].get(f"/dashboard/reports?{query}").content.decode()

    assert table(html, "busiest")[1][:4] == ["Centre", "2", "2", "1"]
    today = f"date_from={timezone.localdate()}&date_to={timezone.localdate()}"
    html = people["admin"].get(f"/dashboard/reports?{today}").content.decode()
    assert table(html, "program-revenue")[1:] == [
        ["Beginners' clinic", "2", "$40.00", "$20.00", "$20.00"],
        ["Total", "2", "$40.00", "$20.00", "$20.00"],
    ]
    assert table(html, "revenue")[0][-1] == "Registrations, net"
    ledger = people["admin"].get("/dashboard/ledger?kind=registration").content.decode()
    assert ledger.count(f'href="/programs/{program.pk}">Beginners&#x27; clinic</a>') == 3  # 2 paid, 1 refund
