"""Bookings in Django admin: to read, with their history; approve, reject and cancel are actions
that go through the services (and so the rules and the audit trail); nothing is edited by hand.
The club rules, blocks and calendar feeds change there through their services too, each change
one audit entry: the service's, never a second one for Django admin."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from audit.models import AuditEntry
from bookings.admin import PolicyAdmin
from bookings.matches import match_open
from bookings.models import Block, Booking, CalendarFeed, Policy
from bookings.players import players_set
from bookings.selectors import policy_get
from bookings.services import calendar_feed_get
from bookings.tests.factories import lift_hour_limits, make_booking, tomorrow
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/bookings/booking/"


def act(client, action: str, *bookings):
    return client.post(
        CHANGELIST, {"action": action, "_selected_action": [b.pk for b in bookings]}, follow=True
    )


def test_the_actions_go_through_the_services_and_are_audited(people):
    ada = User.objects.get(email="ada@example.com")
    lift_hour_limits()
    first, second, third = (make_booking(user=ada) for _ in range(3))
    confirmed = make_booking(user=ada, status=Booking.Status.CONFIRMED)

    approved = act(people["admin"], "approve", first).content.decode()
    act(people["admin"], "reject", second)
    refused = act(people["admin"], "approve", confirmed).content.decode()
    cancelled = act(people["admin"], "cancel", third).content.decode()

    statuses = dict(Booking.objects.values_list("pk", "status"))
    assert [statuses[b.pk] for b in (first, second, third, confirmed)] == [
        "approved",
        "rejected",
        "cancelled",
        "confirmed",
    ]
    assert f"Booking #{first.pk} approved." in approved
    assert f"Booking #{confirmed.pk}: This booking is confirmed and cannot be approved." in refused
    assert f"Booking #{third.pk} cancelled." in cancelled
    assert list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "target_id")) == [
        ("ann@example.com", "booking.approved", str(first.pk)),
        ("ann@example.com", "booking.rejected", str(second.pk)),
        ("ann@example.com", "booking.cancelled", str(third.pk)),
    ]


def test_a_booking_is_read_with_its_players_match_and_history_and_never_edited(people):
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(user=ada, date=timezone.localdate() + timedelta(days=5))
    players_set(booking=booking, by=ada, people=[], invite=["ken@example.com"], guests=["Uncle Bob"])
    match_open(
        booking=booking,
        by=ada,
        places=4,
        deadline=timezone.now() + timedelta(days=1),
        level_min=Decimal("2.5"),
    )

    page = people["admin"].get(f"/admin/bookings/booking/{booking.pk}/change/").content.decode()
    edited = people["admin"].post(f"/admin/bookings/booking/{booking.pk}/change/", {"status": "confirmed"})

    assert "Booking status changes" in page
    assert "ken@example.com" in page
    assert "Uncle Bob" in page
    assert "Open match" in page
    assert "2.5" in page
    assert page.count('<td class="field-to_status">') == 1  # its one change so far: requested
    assert 'name="status"' not in page
    assert edited.status_code == 403
    assert Booking.objects.get().status == Booking.Status.PENDING


@pytest.mark.parametrize("kind", ["owner", "member"])
def test_nobody_but_admins_reaches_the_bookings_in_django_admin(people, kind):
    assert people[kind].get(CHANGELIST).status_code == 302


def test_payments_are_read_with_their_refunds(people):
    assert people["admin"].get("/admin/payments/payment/").status_code == 200
    assert people["admin"].get("/admin/payments/payment/add/").status_code == 403


def test_the_club_rules_changed_in_django_admin_are_one_entry_of_the_rules_that_changed(people):
    policy = policy_get()
    form = {name: "" if (value := getattr(policy, name)) is None else value for name in PolicyAdmin.fields}
    form |= {"open_bookings_limit": policy.open_bookings_limit + 1, "refund_percent": 50}

    response = people["admin"].post(f"/admin/bookings/policy/{policy.pk}/change/", form, follow=True)

    assert "was changed successfully" in response.content.decode()
    [entry] = AuditEntry.objects.all()
    assert (entry.actor_email, entry.action) == ("ann@example.com", "policy.change")
    limit = policy.open_bookings_limit
    assert entry.before == {"open_bookings_limit": limit, "refund_percent": policy.refund_percent}
    assert entry.after == {"open_bookings_limit": limit + 1, "refund_percent": 50}
    assert people["admin"].get("/admin/bookings/policy/add/").status_code == 403
    assert Policy.objects.count() == 1


def test_a_block_added_and_lifted_in_django_admin_is_audited_once_each(people):
    court = CourtFactory(slots=["08:00-09:00"])
    form = {"court": court.pk, "date": tomorrow().isoformat(), "until": "", "slots": '["08:00-09:00"]'}

    added = people["admin"].post("/admin/bookings/block/add/", {**form, "reason": "Works"}, follow=True)
    block = Block.objects.get()
    people["admin"].post(f"/admin/bookings/block/{block.pk}/delete/", {"post": "yes"})

    assert "was added successfully" in added.content.decode()
    assert list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "target_id")) == [
        ("ann@example.com", "block.create", str(block.pk)),
        ("ann@example.com", "block.delete", str(block.pk)),
    ]


def test_an_admin_retires_someones_calendar_feed_address_and_it_is_audited(people):
    ada = User.objects.get(email="ada@example.com")
    secret = calendar_feed_get(user=ada).secret

    page = people["admin"].get("/admin/bookings/calendarfeed/").content.decode()
    response = people["admin"].post(
        "/admin/bookings/calendarfeed/",
        {"action": "reset", "_selected_action": [CalendarFeed.objects.get().pk]},
        follow=True,
    )

    assert secret not in page
    assert "The calendar feed of ada@example.com has a new address." in response.content.decode()
    assert CalendarFeed.objects.get().secret != secret
    assert people["anonymous"].get(f"/calendar/{secret}.ics").status_code == 404
    [entry] = AuditEntry.objects.all()
    assert (entry.actor_email, entry.action) == ("ann@example.com", "calendar_feed.reset")
    assert secret not in json.dumps([entry.summary, entry.before, entry.after])


def test_the_held_slots_index_is_not_in_django_admin(people):
    assert people["admin"].get("/admin/bookings/bookedslot/").status_code == 404
