import pytest
from django.conf import settings
from django.core.management import call_command

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import booking_request, policy_update
from bookings.tests.factories import tomorrow
from content.models import Announcement
from courts.models import Court
from payments.models import Coupon

# seed_demo makes the demo accounts in the Firebase Auth Emulator.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_emulator")]


def test_seed_demo_adds_courts_of_several_types_with_slots_and_prices():
    call_command("seed_demo", verbosity=0)

    courts = list(Court.objects.all())
    assert len(courts) >= 7
    assert len({court.type for court in courts}) >= 4
    for court in courts:
        assert court.price > 0
        assert court.slots
        court.full_clean()


def test_seed_demo_images_ship_with_the_project():
    call_command("seed_demo", verbosity=0)

    for court in Court.objects.all():
        assert court.image.startswith(settings.STATIC_URL)
        shipped = settings.BASE_DIR / "static" / court.image.removeprefix(settings.STATIC_URL)
        assert shipped.is_file(), court.image


def test_running_seed_demo_twice_changes_nothing():
    call_command("seed_demo", verbosity=0)
    tables = (Court, Coupon, Announcement)
    first = [list(model.objects.order_by("id").values()) for model in tables]

    call_command("seed_demo", verbosity=0)

    assert [list(model.objects.order_by("id").values()) for model in tables] == first


def test_seed_demo_adds_coupons_for_the_home_page_and_an_announcement():
    call_command("seed_demo", verbosity=0)

    assert Coupon.objects.filter(is_active=True).count() == 3
    assert Announcement.objects.count() == 1


def test_seed_demo_leaves_a_court_staff_have_edited():
    call_command("seed_demo", verbosity=0)
    court = Court.objects.get(name="Centre Court")
    court.price = 99
    court.save()

    call_command("seed_demo", verbosity=0)

    court.refresh_from_db()
    assert court.price == 99


def test_seed_demo_makes_the_demo_accounts_in_the_emulator_and_the_database(emulator, localstripe, client):
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)

    roles = dict(User.objects.filter(email__endswith="@club.example").values_list("email", "role"))
    # The members are members by their plans (club/tests/test_demo_memberships.py).
    assert roles == {
        "admin@club.example": "admin",
        "member@club.example": "member",
        "premium@club.example": "member",
        "user@club.example": "user",
    }
    assert User.objects.get(email="member@club.example").member_since is not None
    # The printed password signs in for real.
    token = emulator.sign_in("admin@club.example", "demo-admin-1")["idToken"]
    response = client.post("/api/session", {"idToken": token}, content_type="application/json")
    assert response.json()["role"] == "admin"
    # Their addresses count as verified, so nobody is asked to verify a demo e-mail.
    assert "Please verify your e-mail address" not in client.get("/").content.decode()


def test_the_demo_club_limits_each_persons_hours_a_day(emulator):
    call_command("seed_demo", verbosity=0)

    policy = policy_get()
    assert (policy.daily_hours_limit, policy.daily_open_hours_limit) == (4, 3)
    # The demo user books an evening's two hours as anyone would.
    user = User.objects.get(email="user@club.example")
    court = Court.objects.get(name="Centre Court")
    booking = booking_request(user=user, court=court, date=tomorrow(), slots=court.slots[-2:])
    assert booking.status == Booking.Status.PENDING


def test_seed_demo_leaves_the_rules_an_admin_has_set():
    policy_update(daily_hours_limit=None, open_bookings_limit=2)

    call_command("seed_demo", verbosity=0)

    assert (policy_get().daily_hours_limit, policy_get().open_bookings_limit) == (None, 2)
