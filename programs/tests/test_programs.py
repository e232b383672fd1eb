"""Programs (docs/rules.md, Programs): an admin makes one, whose slots its blocks hold; people
register while places are left (exactly one of many gets the last), the others join its waitlist;
a place freed goes to the first in line, held for them to pay; cancelling refunds by the program's
cut-off; calling it off refunds everyone and frees its slots."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.services import SlotTaken, booking_request, policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.errors import Conflict, Forbidden
from memberships.tests.factories import make_membership, make_plan
from notifications.models import Notification
from programs.models import Program, Registration
from programs.services import (
    coach_fields,
    program_cancel,
    program_message,
    program_register,
    program_update,
    registration_cancel,
    registrations_lapse,
)
from programs.tests.factories import in_days, make_program
from testing.concurrency import at_once

pytestmark = pytest.mark.django_db
Status = Registration.Status


def person(n: int, role=User.Role.USER) -> User:
    return User.objects.create_user(f"person{n}@example.com", name=f"Person {n}", role=role)


@pytest.fixture
def admin():
    return User.objects.create_user("kim@example.com", role=User.Role.ADMIN, name="Kim Admin")


# --- Making a program -------------------------------------------------------------------------


def test_a_program_holds_its_slots_on_each_court_and_day_as_a_block(admin):
    courts = [
        CourtFactory(name="One", slots=["10:00-11:00"]),
        CourtFactory(name="Two", slots=["10:00-11:00"]),
    ]

    program = make_program(by=admin, courts=courts, until=in_days(5 + 14))

    assert program.dates == [in_days(5), in_days(12), in_days(19)]
    held = BookedSlot.objects.filter(block__programs=program)
    assert held.count() == 6
    assert {block.reason for block in program.blocks.all()} == {"Clinic: Beginners' clinic"}
    with pytest.raises(SlotTaken):
        booking_request(user=person(1), court=courts[1], date=in_days(12), slots=["10:00-11:00"])


def test_a_booking_in_the_way_refuses_the_program_whole(admin):
    court = CourtFactory(slots=["10:00-11:00"])
    make_booking(court=court, date=in_days(5), slots=["10:00-11:00"])

    with pytest.raises(Conflict, match="1 booking holds some of these slots"):
        make_program(by=admin, courts=[court])

    assert not Program.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_booking_and_a_program_racing_for_one_slot_never_both_hold_it(admin):
    court = CourtFactory(slots=["10:00-11:00"])
    booker = person(1)
    policy_update(advance_days_user=30)

    answers = at_once(
        [
            lambda: make_program(by=admin, courts=[court]),
            lambda: booking_request(user=booker, court=court, date=in_days(5), slots=["10:00-11:00"]),
        ]
    )

    won = [answer for answer in answers if not isinstance(answer, Exception)]
    assert len(won) == 1, answers
    assert BookedSlot.objects.filter(court=court, date=in_days(5)).count() == 1
    assert Program.objects.count() + Booking.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"title": " "}, "title"),
        ({"capacity": 0}, "capacity"),
        ({"price": Decimal("-1")}, "price"),
        ({"slots": ["07:00-08:00"]}, "slots"),
        ({"coach_name": ""}, "coachName"),
        ({"registration_closes_at": timezone.now() + timedelta(days=30)}, "registrationClosesAt"),
        ({"first_date": in_days(-1)}, "firstDate"),
    ],
    ids=["no-title", "no-places", "negative-price", "not-a-slot", "no-coach", "closes-after-start", "past"],
)
def test_a_program_that_cannot_be_is_refused_by_field(admin, fields, field):
    with pytest.raises(ValidationError) as refused:
        make_program(by=admin, **fields)

    assert field in refused.value.message_dict
    assert not Program.objects.exists()


# --- Registering --------------------------------------------------------------------------------


def test_registering_holds_a_place_to_pay_for_and_a_free_one_is_confirmed_at_once(admin):
    paid = make_program(by=admin)
    free = make_program(by=admin, price=Decimal("0"), first_date=in_days(6))

    held = program_register(program=paid, user=person(1))
    registered = program_register(program=free, user=person(2))

    assert (held.status, held.price) == (Status.HELD, Decimal("20.00"))
    assert held.held_until - timezone.now() <= timedelta(minutes=10)
    assert registered.status == Status.CONFIRMED
    assert Notification.objects.filter(event="program_registered", recipient=registered.user).exists()


def test_a_plans_percent_off_applies_to_its_holders(admin):
    program = make_program(by=admin)
    mia = person(1, User.Role.MEMBER)
    make_membership(user=mia, plan=make_plan(member_price_kind="percent", member_price_value=Decimal("25")))

    assert program_register(program=program, user=mia).price == Decimal("15.00")


@pytest.mark.parametrize(
    ("fields", "refusal"),
    [
        ({"registration_opens_at": timezone.now() + timedelta(hours=2)}, "Registration opens"),
        ({"members_only": True}, "This program is for members only"),
    ],
)
def test_registration_is_refused_outside_its_rules(admin, fields, refusal):
    program = make_program(by=admin, **fields)

    with pytest.raises(Conflict, match=refusal):
        program_register(program=program, user=person(1))


def test_one_place_per_person(admin):
    program = make_program(by=admin)
    ada = person(1)
    program_register(program=program, user=ada)

    with pytest.raises(Conflict, match="You are registered already"):
        program_register(program=program, user=ada)


@pytest.mark.django_db(transaction=True)
def test_exactly_one_of_twenty_registering_at_once_gets_the_last_place(admin):
    program = make_program(by=admin, capacity=4)
    for n in range(3):
        program_register(program=program, user=person(n))
    racers = [person(100 + n) for n in range(20)]

    answers = at_once([lambda racer=racer: program_register(program=program, user=racer) for racer in racers])

    statuses = sorted(answer.status for answer in answers)
    assert statuses.count(Status.HELD) == 1
    assert statuses.count(Status.WAITING) == 19
    assert program.registrations.filter(status=Status.HELD).count() == 4


# --- The waitlist -------------------------------------------------------------------------------


@pytest.fixture
def full(admin):
    """A clinic for four, full: four registered (paid places confirmed), and a fifth waiting."""
    program = make_program(by=admin, price=Decimal("0"))
    Program.objects.filter(pk=program.pk).update(price=Decimal("20.00"))
    program.refresh_from_db()
    places = [program_register(program=program, user=person(n)) for n in range(4)]
    Registration.objects.filter(pk__in=[place.pk for place in places]).update(price=Decimal("20.00"))
    fifth = program_register(program=program, user=person(5))
    return program, places, fifth


def test_a_full_program_puts_the_fifth_on_its_waitlist(full):
    _, _, fifth = full
    assert fifth.status == Status.WAITING
    told = Notification.objects.get(event="program_waitlisted", recipient=fifth.user)
    assert told.subject == "On the waitlist: Beginners' clinic"


def test_a_place_freed_is_held_for_the_first_in_line_who_is_told(full):
    policy_update(waitlist_hold_minutes=30)
    _, places, fifth = full

    registration_cancel(registration=places[0], by=places[0].user)

    fifth.refresh_from_db()
    assert fifth.status == Status.HELD
    assert timedelta(minutes=29) < fifth.held_until - timezone.now() <= timedelta(minutes=30)
    offer = Notification.objects.get(event="program_place_offered", recipient=fifth.user)
    assert offer.subject.startswith("A place in Beginners' clinic is yours until ")
    assert f"/dashboard/registrations/{fifth.pk}/payment-page" in offer.text


def test_an_offer_run_out_passes_to_the_next(full):
    program, places, fifth = full
    sixth = program_register(program=program, user=person(6))
    registration_cancel(registration=places[0], by=places[0].user)

    registrations_lapse(now=timezone.now() + timedelta(hours=1))

    fifth.refresh_from_db()
    sixth.refresh_from_db()
    assert (fifth.status, sixth.status) == (Status.LAPSED, Status.HELD)


# --- Cancelling ---------------------------------------------------------------------------------


def test_only_the_person_or_an_admin_cancels_a_registration(full, admin):
    _, places, _ = full
    with pytest.raises(Forbidden):
        registration_cancel(registration=places[0], by=places[1].user)
    assert registration_cancel(registration=places[0], by=admin).status == Status.CANCELLED
    with pytest.raises(Conflict):
        registration_cancel(registration=places[0], by=admin)  # once


def test_calling_a_program_off_cancels_everyone_frees_its_slots_and_tells_them(full, admin):
    program, _places, _fifth = full

    program_cancel(program=program, by=admin, reason="Coach unwell")

    assert set(program.registrations.values_list("status", flat=True)) == {Status.CANCELLED}
    assert not BookedSlot.objects.filter(block__programs=program).exists()
    told = Notification.objects.filter(event="program_registration_cancelled")
    assert told.count() == 5
    assert "The club called off Beginners' clinic: Coach unwell" in told.first().text
    with pytest.raises(Conflict, match="called off already"):
        program_cancel(program=program, by=admin)


# --- Changing it, and writing to its participants -----------------------------------------------


def test_more_places_go_to_the_waitlist_and_fewer_than_taken_are_refused(full, admin):
    program, _, fifth = full
    with pytest.raises(ValidationError) as refused:
        program_update(program=program, by=admin, capacity=3)
    assert refused.value.message_dict == {"capacity": ["4 places are taken: it cannot have fewer."]}

    program_update(program=program, by=admin, capacity=5, title="Beginners' clinic (two courts)")

    fifth.refresh_from_db()
    assert fifth.status == Status.HELD
    assert {block.reason for block in program.blocks.all()} == {"Clinic: Beginners' clinic (two courts)"}


def test_the_coach_and_admins_write_to_everyone_with_a_place(full, admin):
    program, places, _ = full
    coach = person(9)
    Program.objects.filter(pk=program.pk).update(coach=coach)
    program.refresh_from_db()

    assert program_message(program=program, by=coach, subject="Bring water", message="It will be hot.") == 4
    assert Notification.objects.filter(event="program_message").count() == 4
    with pytest.raises(Forbidden):
        program_message(program=program, by=places[0].user, subject="Hi", message="Hello")
    with pytest.raises(ValidationError):
        program_message(program=program, by=admin, subject="", message="")


def test_a_program_keeps_a_coach_whoever_changes_it(admin):
    program = make_program(by=admin)

    with pytest.raises(ValidationError) as refused:
        program_update(program=program, by=admin, coach_name=" ")

    assert refused.value.message_dict == {"coachName": ["Name its coach: a person of the club, or a name."]}
    coach = person(9)
    changed = program_update(
        program=program, by=admin, **coach_fields({"coach_email": coach.email, "coach_name": ""})
    )
    assert (changed.coach, changed.coach_shown) == (coach, "Person 9")
