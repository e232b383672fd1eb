"""The dashboard's landing for users and members: above the profile card, their membership (what its
plan gives and what comes next), their next bookings, the payments due with their deadlines, the
waitlist offers held for them and the announcements they have not read, each with what to do next
and an empty state; admins keep their own landing."""

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking, Player
from bookings.services import booking_cancel, policy_update
from bookings.tests.factories import lift_hour_limits, make_booking, tomorrow
from bookings.waitlist import waitlist_join, waitlist_offer
from content.models import Announcement
from courts.tests.factories import CourtFactory
from kernel.days import day, when
from kernel.slots import slots_label
from memberships.services import (
    membership_cancel_at_period_end,
    membership_open,
    membership_renewal_failed,
)
from memberships.tests.factories import make_membership, make_plan
from payments.models import Payment

pytestmark = pytest.mark.django_db
Status = Booking.Status
SECTIONS = ["next-bookings", "payments-due", "waitlist-offers", "unread-announcements"]


def section(html: str, name: str) -> str:
    """The text of the home's section `name`, its tags dropped and its spaces collapsed."""
    found = re.search(rf'<section[^>]*data-testid="{name}".*?</section>', html, re.S)
    assert found, f"no section {name}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def links(html: str, name: str) -> list[tuple[str, str]]:
    """The links of the section `name`: (address, text)."""
    found = re.search(rf'<section[^>]*data-testid="{name}".*?</section>', html, re.S).group(0)
    return [
        (href.replace("&amp;", "&"), " ".join(re.sub(r"<[^>]+>", " ", text).split()))
        for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>(.*?)</a>', found, re.S)
    ]


def home(client) -> str:
    response = client.get("/dashboard")
    assert response.status_code == 200
    return response.content.decode()


def ada() -> User:
    return User.objects.get(email="ada@example.com")


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court")


# Who sees it


@pytest.mark.parametrize("role", [User.Role.USER, User.Role.MEMBER])
def test_a_user_or_member_sees_the_four_sections_above_their_profile_card(sign_in_as, role):
    html = home(sign_in_as("ada@example.com", role))

    where = [html.index(f'data-testid="{name}"') for name in [*SECTIONS, "profile-card"]]
    assert where == sorted(where)
    assert 'data-testid="club-counts"' not in html


def test_an_admin_keeps_the_clubs_counts_and_day_start_without_the_members_sections(admin):
    html = home(admin)

    assert 'data-testid="club-counts"' in html
    assert 'data-testid="day-start"' in html
    assert 'data-testid="profile-card"' in html
    assert not any(f'data-testid="{name}"' in html for name in SECTIONS)


def test_a_visitor_is_sent_to_sign_in(client):
    response = client.get("/dashboard")

    assert response.status_code == 302
    assert response["Location"] == "/login?next=/dashboard"


# Next bookings


def test_without_bookings_to_come_the_home_offers_to_book_a_court(sign_in_as):
    html = home(sign_in_as())

    assert "No upcoming bookings." in section(html, "next-bookings")
    assert ("/schedule", "Book a court") in links(html, "next-bookings")


def test_the_next_bookings_are_ones_own_still_to_come_the_soonest_first(sign_in_as, court):
    client = sign_in_as()
    lift_hour_limits()
    later = make_booking(
        user=ada(),
        court=court,
        date=tomorrow() + timedelta(days=2),
        slots=court.slots[:1],
        status=Status.CONFIRMED,
    )
    sooner = make_booking(user=ada(), court=court, slots=court.slots[1:2])
    approved = make_booking(user=ada(), court=court, slots=court.slots[2:], status=Status.APPROVED)
    make_booking(court=court, date=tomorrow() + timedelta(days=1), slots=court.slots[:1])  # another person's
    cancelled = make_booking(user=ada(), court=court, slots=court.slots[:1], status=Status.CANCELLED)
    past = make_booking(user=ada(), court=court, slots=court.slots[:1], status=Status.CONFIRMED)
    Booking.objects.filter(pk=past.pk).update(
        date=timezone.localdate() - timedelta(days=1), starts_at=timezone.now() - timedelta(days=1)
    )

    html = home(client)

    shown = [href for href, _ in links(html, "next-bookings") if href.startswith("/dashboard/bookings/")]
    assert shown == [f"/dashboard/bookings/{b.pk}" for b in (sooner, approved, later)]
    assert f"/dashboard/bookings/{cancelled.pk}" not in shown
    text = section(html, "next-bookings")
    assert "Centre Court" in text
    assert slots_label(court.slots[1:2]) in text
    assert "Pending" in text
    assert "Approved" in text
    assert "Confirmed" in text
    assert ("/dashboard/my-bookings", "All my bookings") in links(html, "next-bookings")


def test_the_home_shows_the_first_five_bookings_and_says_how_many_there_are(sign_in_as):
    client = sign_in_as()
    courts = CourtFactory.create_batch(7)
    for court in courts:
        make_booking(user=ada(), court=court, status=Status.CONFIRMED)

    html = home(client)

    shown = [href for href, _ in links(html, "next-bookings") if href.startswith("/dashboard/bookings/")]
    assert len(shown) == 5
    assert "5 of 7" in section(html, "next-bookings")


# Payments due


def test_with_nothing_to_pay_the_home_says_so(sign_in_as, court):
    client = sign_in_as()
    make_booking(user=ada(), court=court)  # pending: nothing to pay yet

    assert "Nothing to pay." in section(home(client), "payments-due")


def test_a_payment_due_shows_its_deadline_in_club_time_and_a_pay_link(sign_in_as, court, settings):
    settings.TIME_ZONE = "America/New_York"
    client = sign_in_as()
    approved = make_booking(user=ada(), court=court, slots=court.slots[:1], status=Status.APPROVED)
    deadline = datetime.now(UTC).replace(minute=5, second=0, microsecond=0) + timedelta(hours=3)
    Booking.objects.filter(pk=approved.pk).update(payment_due_at=deadline)
    overdue = make_booking(user=ada(), court=court, slots=court.slots[1:2], status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(payment_due_at=timezone.now() - timedelta(minutes=1))

    html = home(client)

    text = section(html, "payments-due")
    in_new_york = deadline.astimezone(ZoneInfo("America/New_York"))
    assert f"Pay by {in_new_york:%B} {in_new_york.day}, {in_new_york.year}, {in_new_york:%-I}:05 " in text
    assert "$20.00" in text
    assert links(html, "payments-due") == [(f"/dashboard/payment-page/{approved.pk}", "Pay $20.00")]


# Waitlist offers


def offer_to_ada(court, slots: list[str]) -> None:
    """Ada waits for `slots` of `court` tomorrow, held by Bob, who cancels: they are offered to her."""
    bob = User.objects.create_user("bob@example.com")
    taken = make_booking(user=bob, court=court, slots=slots)
    for slot in slots:
        waitlist_join(user=ada(), court=court, date=tomorrow(), slot=slot)
    booking_cancel(booking=taken, by=bob)
    waitlist_offer(court_id=court.pk, date=tomorrow(), slots=slots)


def test_without_offers_the_home_says_none_are_held(sign_in_as, court):
    client = sign_in_as()
    make_booking(court=court, slots=court.slots[:1])
    waitlist_join(user=ada(), court=court, date=tomorrow(), slot=court.slots[0])  # waiting, not offered

    assert "No slots are held for you." in section(home(client), "waitlist-offers")


def test_an_offer_shows_its_court_day_slots_and_until_when_with_a_link_to_book(sign_in_as, court):
    client = sign_in_as()
    offer_to_ada(court, court.slots[:2])
    until = ada().waitlist.first().offer_expires_at

    html = home(client)

    text = section(html, "waitlist-offers")
    assert "Centre Court" in text
    assert f"{tomorrow():%B} {tomorrow().day}" in text
    assert slots_label(court.slots[:2]) in text  # two slots that follow on, as one range
    assert f"Held until {when(until)}" in text
    assert links(html, "waitlist-offers") == [(f"/schedule?date={tomorrow().isoformat()}", "Book now")]


def test_an_offer_that_ran_out_is_not_shown(sign_in_as, court):
    client = sign_in_as()
    offer_to_ada(court, court.slots[:1])
    ada().waitlist.update(offer_expires_at=timezone.now() - timedelta(seconds=1))

    assert "No slots are held for you." in section(home(client), "waitlist-offers")


# Unread announcements


def test_an_announcement_made_after_one_last_read_them_is_unread_until_one_opens_the_page(sign_in_as):
    client = sign_in_as()
    Announcement.objects.create(text="The courts close at 6 pm on Friday.")

    html = home(client)
    assert "The courts close at 6 pm on Friday." in section(html, "unread-announcements")
    assert ("/dashboard/announcements", "Read all announcements") in links(html, "unread-announcements")

    assert client.get("/dashboard/announcements").status_code == 200

    text = section(home(client), "unread-announcements")
    assert "No new announcements." in text
    assert "The courts close" not in text


def test_announcements_made_before_one_joined_are_not_unread(sign_in_as):
    Announcement.objects.create(text="Welcome to the new season.")
    Announcement.objects.update(created_at=timezone.now() - timedelta(minutes=1))

    assert "No new announcements." in section(home(sign_in_as()), "unread-announcements")


def test_the_home_shows_the_three_newest_unread_and_how_many_there_are(sign_in_as):
    client = sign_in_as()
    for number in range(1, 6):
        Announcement.objects.create(text=f"News number {number}")

    text = section(home(client), "unread-announcements")

    assert "5 new announcements" in text
    assert [int(n) for n in re.findall(r"News number (\d)", text)] == [5, 4, 3]


# Membership


def club_plan(**fields):
    """The club's monthly plan: a lower price per slot and six hours a week."""
    return make_plan(
        name="Club",
        price=Decimal("30.00"),
        period="monthly",
        member_price_kind="fixed",
        member_price_value=Decimal("15.00"),
        booking_window_days=None,
        hours_per_week=6,
        peak_hours_per_week=None,
        members_only_hours=False,
        **fields,
    )


def test_someone_holding_no_membership_has_no_membership_section(sign_in_as):
    html = home(sign_in_as("ada@example.com", User.Role.MEMBER))  # a member by paying for a booking

    assert 'data-testid="membership"' not in html


def test_a_holder_sees_their_membership_first_with_its_benefits_and_next_payment(sign_in_as):
    client = sign_in_as()
    membership = make_membership(user=ada(), plan=club_plan(), days=30)

    html = home(client)

    where = [html.index(f'data-testid="{name}"') for name in ["membership", *SECTIONS]]
    assert where == sorted(where)
    text = section(html, "membership")
    assert "Your membership: Club Active" in text
    assert f"Next payment: $30.00 on {day(membership.period_end)}" in text
    assert "Member price: $15.00 a slot" in text
    assert "Up to 6 hours of courts a week" in text
    assert ("/membership", "Membership and the plans") in links(html, "membership")


def test_a_membership_that_does_not_renew_says_when_it_ends(sign_in_as):
    client = sign_in_as()
    membership = make_membership(user=ada(), plan=club_plan(renews_automatically=False), days=30)

    text = section(home(client), "membership")

    assert f"Ends on {day(membership.period_end)}: it does not renew." in text
    assert "Next payment" not in text


def test_a_membership_cancelled_at_its_periods_end_says_when_it_ends(sign_in_as):
    client = sign_in_as()
    membership = make_membership(user=ada(), plan=make_plan(name="Premium"), days=300)
    membership_cancel_at_period_end(membership_id=membership.pk)

    text = section(home(client), "membership")

    assert f"Ends on {day(membership.period_end)}, as you asked: it does not renew." in text
    assert "Next payment" not in text
    assert "Access to the members-only hours" in text


def test_a_past_due_membership_warns_until_when_its_benefits_stay(sign_in_as):
    client = sign_in_as()
    membership = make_membership(user=ada(), plan=club_plan())
    grace = timezone.now() + timedelta(days=7)
    membership_renewal_failed(membership_id=membership.pk, grace_until=grace, reason="Card declined.")

    html = home(client)

    text = section(html, "membership")
    assert "Past due" in text
    assert f"Your last renewal could not be charged. Pay it with another card before {when(grace)}" in text
    assert 'role="alert"' in html
    assert ("/membership/renew", "Pay with another card") in links(html, "membership")
    assert "Next payment" not in text


def test_a_membership_awaiting_its_first_payment_links_to_paying_it(sign_in_as):
    client = sign_in_as()
    plan = club_plan()
    membership_open(user=ada(), plan=plan)

    html = home(client)

    assert "Awaiting payment" in section(html, "membership")
    assert (f"/membership/join/{plan.pk}", "Finish paying") in links(html, "membership")


def test_a_plan_that_keeps_the_clubs_rules_says_so(sign_in_as):
    client = sign_in_as()
    limits = ["booking_window_days", "hours_per_week", "peak_hours_per_week", "member_price_value"]
    plain = make_plan(
        name="Plain", member_price_kind="none", members_only_hours=False, **dict.fromkeys(limits)
    )
    make_membership(user=ada(), plan=plain)

    assert "Your bookings follow the club's own rules." in section(home(client), "membership")


# Cost


def fill_the_home(court, people: int) -> None:
    """`people` times over, Ada's confirmed booking, payment due, offer and unread announcement; and,
    with any, her membership."""
    lift_hour_limits()
    if people:
        make_membership(user=ada(), plan=make_plan(name="Premium"))
    for number in range(people):
        date = tomorrow() + timedelta(days=number)
        make_booking(user=ada(), court=court, date=date, slots=court.slots[:1], status=Status.CONFIRMED)
        make_booking(user=ada(), court=court, date=date, slots=court.slots[1:2], status=Status.APPROVED)
        bob = User.objects.create_user(f"bob{number}@example.com")
        taken = make_booking(user=bob, court=court, date=date, slots=court.slots[2:])
        waitlist_join(user=ada(), court=court, date=date, slot=court.slots[2])
        booking_cancel(booking=taken, by=bob)
        waitlist_offer(court_id=court.pk, date=date, slots=court.slots[2:])
        Announcement.objects.create(text=f"News {number}")


# Knowing the person takes two queries (their session and their row), then one for their membership
# with its plan, and one a section.
QUERIES = 3 + len(SECTIONS)


@pytest.mark.parametrize("rows", [0, 4])
def test_the_home_costs_one_query_a_section_however_many_rows_it_shows(
    sign_in_as, court, django_assert_max_num_queries, rows
):
    client = sign_in_as()
    fill_the_home(court, rows)

    with django_assert_max_num_queries(QUERIES):
        html = home(client)

    assert len(links(html, "payments-due")) == rows
    assert len(links(html, "waitlist-offers")) == rows
    assert ('data-testid="membership"' in html) == bool(rows)


def test_a_share_to_pay_is_a_payment_due_with_shared_payment(sign_in_as, court):
    client = sign_in_as()
    mia = User.objects.create_user("mia@example.com", name="Mia Park")
    game = make_booking(user=mia, court=court, date=tomorrow() + timedelta(days=3), status=Status.APPROVED)
    Player.objects.create(booking=game, kind=Player.Kind.PERSON, user=ada())
    assert links(home(client), "payments-due") == []  # the organiser pays all

    policy_update(price_sharing="shared")

    assert links(home(client), "payments-due") == [(f"/dashboard/payment-page/{game.pk}", "Pay your share")]
    Payment.objects.create(
        booking=game,
        user=ada(),
        amount=Decimal("5.00"),
        currency="usd",
        status="succeeded",
        paid_at=timezone.now(),
    )
    assert links(home(client), "payments-due") == []  # her share is paid
