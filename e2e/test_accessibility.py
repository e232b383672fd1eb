"""axe-core on every page, as each kind of person sees it: no serious or critical violation."""

import json
import re
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.matches import match_open
from bookings.models import Booking
from bookings.players import invitation_token, players_set
from bookings.series import series_approve, series_book
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from bookings.waitlist import waitlist_join
from content.models import Announcement
from courts.tests.factories import CourtFactory
from e2e.journeys import (
    PASSWORD,
    requests_under_way,
    sign_in,
    sign_in_on_the_login_page,
    sign_up_on_the_register_page,
    wait_until_settled,
)
from memberships.models import Plan
from memberships.services import membership_renewal_failed, plan_create
from memberships.tests.factories import make_membership
from payments.models import Coupon, Payment
from programs.models import Program
from programs.services import program_register
from programs.tests.factories import make_program

pytestmark = pytest.mark.browser

AXE = Path(settings.BASE_DIR, "frontend", "node_modules", "axe-core", "axe.min.js")

PUBLIC = [
    "/",
    "/courts",
    "/support",
    "/schedule",
    "/matches",
    "/programs",
    "/membership",
    "/login",
    "/register",
    "/forgot-password",
    "/email-verified",
    "/forbidden",
    "/blog/1",
    "/no-such-page",
    "/unsubscribe/not-a-token",
    "/local/mail",
    "/local/stripe-clock",
]
SIGNED_IN = [
    "/dashboard",
    "/dashboard/my-bookings",
    "/dashboard/waitlist",
    "/dashboard/pending-bookings",
    "/dashboard/approved-bookings",
    "/dashboard/announcements",
    "/dashboard/profile",
    "/dashboard/email-preferences",
    "/membership",
]
MEMBER = ["/dashboard/confirmed-bookings", "/dashboard/payment-history"]
ADMIN = [
    "/dashboard/manage-courts",
    "/dashboard/manage-programs",
    "/dashboard/manage-users",
    "/dashboard/manage-members",
    "/dashboard/manage-bookings",
    "/dashboard/manage-bookings-approval",
    "/dashboard/club-rules",
    "/dashboard/audit-trail",
    "/dashboard/ledger",
    "/dashboard/reports",
    "/schedule",
    "/dashboard/manage-coupons",
    "/dashboard/membership-plans",
    "/dashboard/make-announcements",
    "/dashboard/support-inbox",
]


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    # axe is the test's own script, injected inline: the site's Content Security Policy rightly
    # refuses it, so these browsers (and only these) set the policy aside.
    return {**browser_context_args, "bypass_csp": True}


# Colours caught halfway through a transition (a dialog fading out over the page, a button's hover)
# are not the page's colours: axe judges the page once only endless animations (spinners) still run.
SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)"""


def serious_violations(page: Page) -> list[str]:
    page.wait_for_function(SETTLED)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + json.dumps([n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def content(db):
    court = CourtFactory(
        name="Centre Court", type="Tennis", price=Decimal("20"), slots=["08:00-09:00", "09:00-10:00"]
    )
    Coupon.objects.create(code="WELCOME20", discount=20, description="For your first booking")
    plan_create(name="Club", price=Decimal("30.00"), period="monthly", hours_per_week=6)
    Announcement.objects.create(text="Courts close early on Friday.")
    # A clinic on the court's later slot in five days: /programs lists it.
    make_program(courts=[court], slots=["09:00-10:00"])
    return court


def check(page: Page, site: str, paths: list[str]) -> dict[str, list[str]]:
    """Each page's violations, read once its islands have mounted and have what they asked for."""
    under_way = requests_under_way(page)
    found = {}
    for path in paths:
        page.goto(site + path)
        wait_until_settled(page, under_way)
        if violations := serious_violations(page):
            found[path] = violations
    return found


def test_public_pages_signed_out(site: str, page: Page, content):
    assert check(page, site, PUBLIC) == {}


@pytest.mark.parametrize(
    ("role", "paths"),
    [
        (User.Role.USER, PUBLIC[:3] + SIGNED_IN),
        (User.Role.MEMBER, SIGNED_IN + MEMBER),
        (User.Role.ADMIN, SIGNED_IN + ADMIN),
    ],
)
def test_pages_for_each_role(site: str, page: Page, emulator, content, role, paths):
    # A password account, through /login: the profile page then offers its password form.
    emulator.sign_up("someone@example.com", PASSWORD)
    someone = User.objects.create_user("someone@example.com", role=role, name="Some One")
    make_booking(user=someone, court=content, slots=["08:00-09:00"])
    approved = make_booking(
        user=someone, court=content, slots=["09:00-10:00"], status=Booking.Status.APPROVED
    )
    paid = Payment.objects.create(
        booking=approved, user=someone, amount=Decimal("20"), currency="usd", status=Payment.Status.SUCCEEDED
    )
    taken = make_booking(court=CourtFactory(name="Side Court", slots=["08:00-09:00"]))
    waitlist_join(user=someone, court=taken.court, date=taken.date, slot="08:00-09:00")
    plan = Plan.objects.get()
    if role == User.Role.MEMBER:  # a membership whose renewal was declined: its warning and buttons
        membership = make_membership(user=someone, plan=plan)
        membership_renewal_failed(
            membership_id=membership.pk, grace_until=timezone.now() + timedelta(days=7), reason="Declined."
        )
    # A weekly series of theirs, approved: its dates' page and, paid at once, its payment page.
    series = series_book(
        user=someone,
        court=content,
        slots=["08:00-09:00"],
        first_date=approved.date + timedelta(days=7),
        every_weeks=1,
        last_date=approved.date + timedelta(days=14),
    )
    series_approve(
        series=series,
        by=User.objects.get_or_create(email="kim@example.com", defaults={"role": User.Role.ADMIN})[0],
    )
    program = Program.objects.get()
    registration = program_register(program=program, user=someone)
    sign_in_on_the_login_page(page, site, "someone@example.com", "/dashboard")

    own = [
        f"/dashboard/bookings/{approved.pk}",
        f"/dashboard/payments/{paid.pk}/receipt",
        f"/schedule?date={approved.date.isoformat()}",
        "/membership/renew" if role == User.Role.MEMBER else f"/membership/join/{plan.pk}",
        f"/dashboard/bookings/{series.occurrences.order_by('date').first().pk}",
        f"/dashboard/series/{series.pk}/payment-page",
        f"/programs/{program.pk}",
        f"/dashboard/registrations/{registration.pk}/payment-page",
        *(
            [f"/programs/{program.pk}/participants", f"/dashboard/manage-programs/{program.pk}"]
            if role == User.Role.ADMIN
            else []
        ),
    ]
    assert check(page, site, paths + own) == {}


def test_the_open_booking_modal_and_the_payment_form(site: str, page: Page, content, localstripe):
    ada = User.objects.create_user("ada@example.com", name="Ada")
    booking = make_booking(user=ada, court=content, status=Booking.Status.APPROVED)
    sign_in(page, site, "ada@example.com", "/courts")

    page.get_by_role("button", name="Book Now").click()
    expect(page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")).to_be_visible()
    assert serious_violations(page) == []

    page.goto(f"{site}/dashboard/payment-page/{booking.pk}")
    expect(page.get_by_role("button", name=re.compile(r"^Pay \$"))).to_be_enabled()
    assert serious_violations(page) == []


def test_the_day_sheet_with_a_free_cell_picked(site: str, page: Page, content):
    User.objects.create_user("ada@example.com", name="Ada")
    day = timezone.localdate() + timedelta(days=1)
    sign_in(page, site, "ada@example.com", f"/schedule?date={day.isoformat()}")

    cell = page.get_by_role("button", name="Free (Centre Court, 08:00-09:00)")
    cell.click()
    expect(cell).to_have_attribute("aria-pressed", "true")
    assert serious_violations(page) == []


def test_pages_with_their_form_messages_showing(site: str, page: Page, content, emulator):
    """Error and success texts are read against their backgrounds too (WCAG AA, 4.5:1)."""
    found = {}

    def record(name: str) -> None:
        if violations := serious_violations(page):
            found[name] = violations

    page.goto(site + "/login")
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_label("Password").fill("wrong-pass-1")
    page.get_by_role("button", name="Login").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("The e-mail or password is not correct.")
    record("/login, a refused sign-in")

    page.goto(site + "/register")
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_label("Full Name")).to_have_accessible_description("Full name is required")
    record("/register, empty fields")

    sign_up_on_the_register_page(page, site, "Grace Hopper", "grace@example.com")
    expect(page.get_by_role("status").filter(has_text="We sent a verification e-mail")).to_be_visible()
    record("/register, the verification link sent")

    page.goto(site + "/support")
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_label("Message")).to_have_accessible_description("Please write your message.")
    record("/support, field errors")

    page.get_by_label("Name").fill("Ada")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Message").fill("Is the club open on Sunday?")
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_text("Thank you! Your message has been sent.").first).to_be_visible()
    record("/support, sent")

    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann")
    sign_in(page, site, "ann@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())
    modal.get_by_role("button", name="Submit Booking").click()
    expect(modal.get_by_role("alert")).to_have_text("Please select at least one slot.")
    record("the booking modal, no slot")

    page.goto(site + "/dashboard/manage-coupons")
    page.get_by_label("Coupon Code").fill("BIG")
    page.get_by_label("Discount %").fill("150")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_label("Discount %")).to_have_accessible_description(
        "The discount is a whole percent from 1 to 100."
    )
    record("Manage Coupons, a refused discount")

    page.goto(site + "/dashboard/club-rules")
    page.get_by_label("Refund before the cut-off (%)").fill("120")
    page.get_by_role("button", name="Save the rules").click()
    expect(page.get_by_role("alert").filter(has_text="1 problem")).to_be_focused()
    record("Club Rules, a refused rule and the summary of problems")

    assert found == {}


def test_the_players_of_a_booking_with_people_found_and_an_invitation(site: str, page: Page, content):
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace")
    User.objects.create_user("mia@example.com", name="Mia Park", level="3.5")
    booking = make_booking(user=ada, court=content, date=timezone.localdate() + timedelta(days=5))
    # Two places of four taken besides the organiser's: a person chosen and an address invited.
    [_, invited] = players_set(
        booking=booking,
        by=ada,
        people=[User.objects.create_user("zoe@example.com", name="Zoe Parker").public_id],
        invite=["ken@example.com"],
        guests=[],
    )
    sign_in(page, site, "ada@example.com", f"/dashboard/bookings/{booking.pk}")

    page.get_by_label("Add a person of the club").fill("mia")
    expect(page.get_by_role("button", name="Add Mia Park · level 3.5")).to_be_visible()
    assert serious_violations(page) == []

    page.context.clear_cookies()
    page.goto(f"{site}/invitations/{invitation_token(invited)}")
    expect(page.get_by_role("button", name="Sign in to accept")).to_be_visible()
    assert serious_violations(page) == []


def test_an_open_match_on_its_page_with_who_pays_what_and_on_matches(site: str, page: Page, content):
    policy_update(price_sharing="shared", guest_fee=Decimal("5.00"))
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace")
    User.objects.create_user("bob@example.com", name="Bob Stone", level=Decimal("4.0"))
    booking = make_booking(user=ada, court=content, date=timezone.localdate() + timedelta(days=5))
    players_set(booking=booking, by=ada, people=[], invite=[], guests=["Sam Guest"])
    match_open(
        booking=booking,
        by=ada,
        places=4,
        deadline=timezone.now() + timedelta(days=1),
        level_min=Decimal("3.0"),
        level_max=Decimal("4.5"),
    )
    sign_in(page, site, "ada@example.com", f"/dashboard/bookings/{booking.pk}")
    expect(page.get_by_role("table", name="Who pays what")).to_be_visible()
    expect(page.get_by_role("button", name="Save the match")).to_be_visible()
    assert serious_violations(page) == []

    page.context.clear_cookies()
    sign_in(page, site, "bob@example.com", "/matches?level=4.0")
    expect(page.get_by_role("button", name="Join the match on")).to_be_visible()
    assert serious_violations(page) == []
