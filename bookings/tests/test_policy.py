"""The club's booking policy: one row admins edit (GET for anyone, PATCH for admins), and each of
its rules enforced by the booking service at its boundary."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from audit.models import AuditEntry
from bookings.models import Booking, Policy
from bookings.selectors import policy_get
from bookings.services import (
    Conflict,
    booking_approve,
    booking_cancel,
    booking_request,
    bookings_expire,
    policy_update,
)
from courts.tests.factories import CourtFactory
from kernel.days import day

pytestmark = pytest.mark.django_db

SLOTS = ["08:00-09:00", "09:00-10:00", "10:00-11:30", "12:00-13:00", "13:00-14:00"]


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", slots=SLOTS)


@pytest.fixture
def other_court():
    return CourtFactory(name="Hall B", slots=SLOTS)


def person(role=User.Role.USER, email="ada@example.com"):
    return User.objects.create_user(email, role=role)


def days_ahead(days):
    return timezone.localdate() + timedelta(days=days)


def test_a_new_clubs_policy_has_the_documented_rules(settings):
    policy = policy_get()

    assert (policy.advance_days_user, policy.advance_days_member, policy.open_bookings_limit) == (30, 30, 4)
    assert (policy.payment_window_hours, policy.decision_window_hours) == (24, 48)
    assert policy.daily_hours_limit is None
    # The policy is the one source of the booking rules: the environment holds none of them.
    assert not [name for name in dir(settings) if name.startswith("BOOKING_")]


def test_an_approval_is_due_within_the_policys_payment_window(court):
    policy_update(payment_window_hours=6)
    booking = booking_request(user=person(), court=court, date=days_ahead(3), slots=SLOTS[:1])

    approved = booking_approve(booking=booking, by=person(User.Role.ADMIN, "ann@example.com"))

    assert approved.payment_due_at == approved.approved_at + timedelta(hours=6)


def test_a_request_expires_after_the_policys_decision_window(court):
    policy_update(decision_window_hours=12)
    ada = person()
    waited, recent = (
        booking_request(user=ada, court=court, date=days_ahead(3), slots=[slot]) for slot in SLOTS[:2]
    )
    Booking.objects.filter(pk=waited.pk).update(created_at=timezone.now() - timedelta(hours=12, minutes=1))
    Booking.objects.filter(pk=recent.pk).update(created_at=timezone.now() - timedelta(hours=11, minutes=59))

    assert bookings_expire() == 1
    assert Booking.objects.get(pk=waited.pk).status == Booking.Status.EXPIRED
    assert Booking.objects.get(pk=recent.pk).status == Booking.Status.PENDING


@pytest.mark.parametrize(
    ("role", "last_day"), [(User.Role.USER, 7), (User.Role.MEMBER, 14), (User.Role.ADMIN, 14)]
)
def test_each_role_books_up_to_its_advance_window_and_not_a_day_more(court, role, last_day):
    policy_update(advance_days_user=7, advance_days_member=14)
    booker = person(role)

    assert booking_request(user=booker, court=court, date=days_ahead(last_day), slots=SLOTS[:1])
    with pytest.raises(ValidationError) as refused:
        booking_request(user=booker, court=court, date=days_ahead(last_day + 1), slots=SLOTS[:1])

    assert refused.value.message_dict == {
        "date": [f"Bookings open {last_day} days ahead for you: choose {days_ahead(last_day)} or earlier."]
    }


def test_one_person_holds_at_most_the_policys_open_bookings(court):
    policy_update(open_bookings_limit=2)
    ada = person()
    booking_request(user=ada, court=court, date=days_ahead(1), slots=SLOTS[:1])
    second = booking_request(user=ada, court=court, date=days_ahead(2), slots=SLOTS[:1])

    with pytest.raises(Conflict, match="You already have 2 open bookings"):
        booking_request(user=ada, court=court, date=days_ahead(3), slots=SLOTS[:1])
    booking_cancel(booking=second, by=ada)
    assert booking_request(user=ada, court=court, date=days_ahead(3), slots=SLOTS[:1])


def test_one_person_holds_at_most_the_daily_hours_across_courts(court, other_court):
    policy_update(daily_hours_limit=3)
    ada = person()
    booking_request(user=ada, court=court, date=days_ahead(1), slots=["08:00-09:00", "10:00-11:30"])

    # 2.5 hours held: another hour would make 3.5, on any court that day.
    with pytest.raises(Conflict) as refused:
        booking_request(user=ada, court=other_court, date=days_ahead(1), slots=["12:00-13:00"])
    assert str(refused.value) == (
        f"You may hold at most 3 hours of courts a day, and you hold 2.5 on {day(days_ahead(1))} already: "
        "choose fewer slots or another day."
    )
    # Another day, or another person, is not counted.
    assert booking_request(user=ada, court=other_court, date=days_ahead(2), slots=SLOTS[:2])
    assert booking_request(
        user=person(email="bob@example.com"), court=other_court, date=days_ahead(1), slots=SLOTS[:2]
    )


def test_released_slots_no_longer_count_toward_the_daily_hours(court):
    policy_update(daily_hours_limit=2)
    ada = person()
    booking = booking_request(user=ada, court=court, date=days_ahead(1), slots=SLOTS[:2])
    booking_cancel(booking=booking, by=ada)

    assert booking_request(user=ada, court=court, date=days_ahead(1), slots=SLOTS[3:5])
    assert Booking.objects.filter(user=ada, status=Booking.Status.PENDING).count() == 1


# --- GET and PATCH /api/policy -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["anonymous", "owner", "member", "admin"])
def test_anyone_reads_the_policy(people, kind):
    policy_update(advance_days_user=7, advance_days_member=30, daily_hours_limit=2)

    response = people[kind].get("/api/policy")

    assert response.status_code == 200
    assert response.json() == {
        "advanceDaysUser": 7,
        "advanceDaysMember": 30,
        "openBookingsLimit": 4,
        "dailyHoursLimit": 2,
        "dailyOpenHoursLimit": 3,
        "weeklyOpenHoursLimit": 6,
        "rerequestCooldownMinutes": 10,
        "approvalRequired": True,
        "decisionWindowHours": 48,
        "paymentWindowHours": 24,
        "checkoutHoldMinutes": 10,
        "cancelCutoffHours": 24,
        "refundPercent": 100,
        "lateRefundPercent": 0,
        "priceSharing": "organiser",
        "guestFee": "0.00",
        "seriesPayment": "at_once",
        "waitlistHoldMinutes": 30,
        "membershipGraceDays": 7,
    }


@pytest.mark.parametrize(("kind", "status_code"), [("anonymous", 401), ("owner", 403), ("member", 403)])
def test_only_admins_change_the_policy(people, kind, status_code):
    response = people[kind].patch("/api/policy", {"openBookingsLimit": 9}, content_type="application/json")

    assert response.status_code == status_code
    assert policy_get().open_bookings_limit == 4


def test_an_admin_changes_some_rules_and_the_others_stay(people):
    response = people["admin"].patch(
        "/api/policy",
        {
            "advanceDaysMember": 60,
            "dailyHoursLimit": 4,
            "approvalRequired": False,
            "decisionWindowHours": 36,
            "lateRefundPercent": 50,
        },
        content_type="application/json",
    )

    assert response.status_code == 200
    assert response.json() == {
        "advanceDaysUser": 30,
        "advanceDaysMember": 60,
        "openBookingsLimit": 4,
        "dailyHoursLimit": 4,
        "dailyOpenHoursLimit": 3,
        "weeklyOpenHoursLimit": 6,
        "rerequestCooldownMinutes": 10,
        "approvalRequired": False,
        "decisionWindowHours": 36,
        "paymentWindowHours": 24,
        "checkoutHoldMinutes": 10,
        "cancelCutoffHours": 24,
        "refundPercent": 100,
        "lateRefundPercent": 50,
        "priceSharing": "organiser",
        "guestFee": "0.00",
        "seriesPayment": "at_once",
        "waitlistHoldMinutes": 30,
        "membershipGraceDays": 7,
    }
    response = people["admin"].patch(
        "/api/policy", {"dailyHoursLimit": None}, content_type="application/json"
    )
    assert response.json()["dailyHoursLimit"] is None
    assert Policy.objects.count() == 1
    changed = AuditEntry.objects.filter(action="policy.change").earliest("at")
    assert (changed.before["decision_window_hours"], changed.after["decision_window_hours"]) == (48, 36)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"advanceDaysUser": -1}, "advanceDaysUser"),
        ({"advanceDaysMember": 366}, "advanceDaysMember"),
        ({"openBookingsLimit": 0}, "openBookingsLimit"),
        ({"dailyHoursLimit": 25}, "dailyHoursLimit"),
        ({"dailyOpenHoursLimit": 25}, "dailyOpenHoursLimit"),
        ({"weeklyOpenHoursLimit": 0}, "weeklyOpenHoursLimit"),
        ({"rerequestCooldownMinutes": 1441}, "rerequestCooldownMinutes"),
        ({"decisionWindowHours": 0}, "decisionWindowHours"),
        ({"paymentWindowHours": 721}, "paymentWindowHours"),
        ({"checkoutHoldMinutes": 1}, "checkoutHoldMinutes"),
        ({"cancelCutoffHours": 721}, "cancelCutoffHours"),
        ({"refundPercent": 101}, "refundPercent"),
        ({"lateRefundPercent": -1}, "lateRefundPercent"),
        ({"waitlistHoldMinutes": 4}, "waitlistHoldMinutes"),
        ({"membershipGraceDays": 61}, "membershipGraceDays"),
        ({"approvalRequired": "maybe"}, "approvalRequired"),
        ({"dailyHoursLimit": "many"}, "dailyHoursLimit"),
    ],
)
def test_bad_rules_answer_400_with_a_message_for_the_field(people, body, field):
    response = people["admin"].patch("/api/policy", body, content_type="application/json")

    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert policy_get().open_bookings_limit == 4


def test_the_booking_modal_offers_each_role_its_own_window(sign_in_as, court):
    policy_update(advance_days_user=7, advance_days_member=14)

    for role, days in ((User.Role.USER, 7), (User.Role.MEMBER, 14)):
        page = sign_in_as(f"{role}@example.com", role).get("/courts").content.decode()
        assert f'"maxDate": "{days_ahead(days).isoformat()}"' in page
