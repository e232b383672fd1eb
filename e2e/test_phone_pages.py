"""Every page of the site on a phone (390 by 844 px), as each kind of person opens it: nothing
scrolls sideways and the menu button is whole on screen.

The pages are the URL conf's: each route is either a page, named with who can open it, or set
aside with the reason it is not one. A route added without either fails the first test here."""

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.mail import send_mail
from django.urls import URLResolver, get_resolver
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.matches import match_open
from bookings.models import Booking, Series
from bookings.players import invitation_token, players_set
from bookings.series import series_approve, series_book
from bookings.tests.factories import make_booking
from bookings.waitlist import waitlist_join
from club.demo_history import seed_history
from content.data import BLOG_POSTS
from content.models import Announcement, ContactMessage
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, requests_under_way, sign_in, wait_until_settled
from memberships.models import Membership, Plan
from memberships.services import membership_renewal_failed
from memberships.tests.factories import make_membership, make_plan
from notifications.services import unsubscribe_token
from payments.models import Coupon, Payment
from payments.tests.helpers import paid
from programs.models import Program, Registration
from programs.services import program_register
from programs.tests.factories import make_program

pytestmark = pytest.mark.browser


VISITOR, USER, MEMBER, ADMIN = "visitor", "user", "member", "admin"
ANYONE = {VISITOR, USER, MEMBER, ADMIN}
SIGNED_IN = {USER, MEMBER, ADMIN}

# Who opens each page: a signed-in person sees the public pages too, with their own menus.
PAGES = {
    "": ANYONE,
    "support": ANYONE,
    "blog/<int:post_id>": ANYONE,
    "forbidden": ANYONE,
    "email-verified": ANYONE,
    "courts": ANYONE,
    "schedule": ANYONE,
    "membership": ANYONE,
    "membership/join/<int:plan_id>": SIGNED_IN,
    "membership/renew": SIGNED_IN,  # the member's renewal is past due; anyone else is sent on
    "unsubscribe/<str:token>": ANYONE,
    "invitations/<str:token>": ANYONE,
    "matches": ANYONE,
    "programs": ANYONE,
    "programs/<int:program_id>": ANYONE,
    "programs/<int:program_id>/participants": {ADMIN},
    "dashboard/manage-programs": {ADMIN},
    "dashboard/manage-programs/<int:program_id>": {ADMIN},
    "dashboard/series/<int:series_id>/payment-page": {USER},
    "dashboard/registrations/<int:registration_id>/payment-page": SIGNED_IN,
    "login": {VISITOR},  # signed in, these send the person on
    "register": {VISITOR},
    "forgot-password": {VISITOR},
    "local/mail": {VISITOR},
    "local/mail/<str:mail_id>": {VISITOR},
    "local/auth-links": {VISITOR},
    "local/stripe-clock": {VISITOR},
    "dashboard": SIGNED_IN,
    "dashboard/profile": SIGNED_IN,
    "dashboard/email-preferences": SIGNED_IN,
    "dashboard/announcements": SIGNED_IN,
    "dashboard/my-bookings": SIGNED_IN,
    "dashboard/waitlist": SIGNED_IN,
    "dashboard/pending-bookings": SIGNED_IN,
    "dashboard/approved-bookings": SIGNED_IN,
    "dashboard/bookings/<int:booking_id>": SIGNED_IN,
    "dashboard/payment-page/<int:booking_id>": SIGNED_IN,
    "dashboard/payments/<int:payment_id>/receipt": {MEMBER, ADMIN},
    "dashboard/confirmed-bookings": {MEMBER},
    "dashboard/payment-history": {MEMBER},
    "dashboard/manage-bookings-approval": {ADMIN},
    "dashboard/manage-bookings": {ADMIN},
    "dashboard/manage-users": {ADMIN},
    "dashboard/manage-members": {ADMIN},
    "dashboard/manage-courts": {ADMIN},
    "dashboard/manage-coupons": {ADMIN},
    "dashboard/membership-plans": {ADMIN},
    "dashboard/make-announcements": {ADMIN},
    "dashboard/support-inbox": {ADMIN},
    "dashboard/support-inbox/<int:contact_id>": {ADMIN},
    "dashboard/club-rules": {ADMIN},
    "dashboard/audit-trail": {ADMIN},
    "dashboard/ledger": {ADMIN},
    "dashboard/reports": {ADMIN},
}
# Pages a route shows in more than one way, and the page of an address nothing answers.
MORE_PAGES = {
    "/no-such-page": ANYONE,
    "/dashboard/support-inbox?show=all": {ADMIN},
    "/dashboard/manage-bookings?page=3": {ADMIN},  # a pager with pages before and after
}
NOT_PAGES = {
    "api/": "the JSON API, read by the islands",
    "admin/": "Django admin, whose pages and phone layout are Django's own",
    "newsletter": "takes a POST and redirects to the home page",
    "logout": "takes a POST and redirects",
    "dashboard/profile/sign-out-everywhere": "takes a POST and redirects",
    "dashboard/support-inbox/<int:contact_id>/handled": "takes a POST and redirects",
    "dashboard/bookings/<int:booking_id>/calendar.ics": "a calendar file to download",
    "dashboard/bookings/<int:booking_id>/match": "takes a POST and redirects to the booking's page",
    "matches/<int:match_id>/join": "takes a POST and redirects",
    "programs/<int:program_id>/register": "takes a POST and redirects",
    "calendar/<slug:secret>.ics": "a calendar feed for calendar apps",
    "dashboard/ledger.csv": "a CSV file to download",
    "healthz": "the health check of load balancers",
    "local/mail/<str:mail_id>/html": "an e-mail's own HTML, framed in its page (local/mail/<id>)",
    "local/mail/<str:mail_id>/attachments/<int:index>": "an attachment to download",
    "local/stripe-adapter.js": "the local Stripe stand-in's script",
    "local/stripe-confirm": "the local Stripe stand-in's API",
    "local/stripe-clock/<int:membership_id>/renew": "takes a POST and redirects",
}


def routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the URL conf, included ones written in full."""
    found = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found += routes(pattern.url_patterns, route)
        else:
            found.append(route)
    return found


def test_every_route_is_a_page_here_or_set_aside_with_a_reason():
    unclassified = [
        route
        for route in routes()
        if route not in PAGES and not any(route.startswith(aside) for aside in NOT_PAGES)
    ]
    assert unclassified == [], "Add each to PAGES (with who opens it) or NOT_PAGES (with why not)"
    gone = [route for route in [*PAGES, *NOT_PAGES] if not any(r.startswith(route) for r in routes())]
    assert gone == []


@dataclass
class Club:
    """What each person has, so that every list has rows and every page with an id has one."""

    bookings: dict[str, Booking]  # the role's approved booking: its detail and payment pages
    shown_booking: dict[str, Booking]  # the booking whose detail page the role opens
    payment: Payment
    contact: ContactMessage
    mail_id: str
    unsubscribe_token: str
    invitation_token: str
    plan: Plan
    program: Program
    registrations: dict[str, Registration]  # the place held for each role, to pay for
    series: Series  # the user's, approved, paid at once


LONG_EMAIL = "alexandra.konstantinopoulou.the.third@example-sports-club.com"
EMAILS = {USER: "uma.user@example.com", MEMBER: LONG_EMAIL, ADMIN: "ann.admin@example.com"}


@pytest.fixture
def club(mailbox, settings) -> Club:
    """The demo club's three months of play (as in `make run`), in lists of many short pages, and
    each person's own bookings in every state, under long names."""
    settings.DASHBOARD_PAGE_SIZE = 5
    court = CourtFactory(name="Centre Court With A Long Name", price=Decimal("30.00"))
    side = CourtFactory(name="Side Court", slots=["08:00-09:00"])
    people = {
        role: User.objects.create_user(
            EMAILS[role], role=role, name="Alexandra Konstantinopoulou " + role.title()
        )
        for role in [USER, MEMBER, ADMIN]
    }
    seed_history(regulars=[people[MEMBER]])
    taken = make_booking(court=side, slots=["08:00-09:00"])
    approved = {}
    for (role, person), slot in zip(people.items(), court.slots, strict=True):
        approved[role] = make_booking(user=person, court=court, slots=[slot], status=Booking.Status.APPROVED)
        make_booking(user=person, court=court, date=approved[role].date + timedelta(days=1), slots=[slot])
        waitlist_join(user=person, court=side, date=taken.date, slot="08:00-09:00")
    member = people[MEMBER]
    confirmed = make_booking(
        user=member,
        court=court,
        date=approved[MEMBER].date + timedelta(days=2),
        slots=court.slots[:3],
        status=Booking.Status.CONFIRMED,
    )
    payment = paid(confirmed, "90.00", timezone.now(), card_last4="4242")
    [_, invited, _] = players_set(
        booking=confirmed,
        by=member,
        people=[people[USER].public_id],
        invite=["invited." + LONG_EMAIL],
        guests=["Alexandra Konstantinopoulou Guest"],
    )
    # An open match, on /matches and on its organiser's booking page.
    match_open(
        booking=make_booking(
            user=people[USER], court=court, date=confirmed.date + timedelta(days=1), slots=court.slots[:1]
        ),
        by=people[USER],
        places=4,
        deadline=timezone.now() + timedelta(days=1),
        level_min=Decimal("3.0"),
        level_max=Decimal("4.5"),
    )
    # A weekly series of the user's, approved, to pay at once.
    series = series_book(
        user=people[USER],
        court=side,
        slots=["08:00-09:00"],
        first_date=confirmed.date + timedelta(days=3),
        every_weeks=1,
        last_date=confirmed.date + timedelta(days=17),
    )
    series_approve(series=series, by=people[ADMIN])
    # A clinic with a place held for each of them, which their payment pages show.
    program = make_program(
        by=people[ADMIN],
        courts=[CourtFactory(name="Clinic Court With A Long Name", slots=["10:00-11:00"])],
        title="Beginners' clinic for grown-ups who never held a racket",
        description="Forehand, backhand and the serve, with a long description. " * 5,
    )
    registrations = {role: program_register(program=program, user=person) for role, person in people.items()}
    Coupon.objects.create(code="SPRING20", discount=20, description="Twenty off any court in spring")
    plan = make_plan(name="Club Monthly With A Long Name", period="monthly")
    membership = make_membership(user=member, plan=plan)
    membership_renewal_failed(
        membership_id=membership.pk, grace_until=timezone.now() + timedelta(days=7), reason="Declined."
    )
    # A membership that renews at Stripe, as Stripe's clock (/local/stripe-clock) lists them.
    holder = User.objects.create_user("renewing." + LONG_EMAIL, name="Alexandra Konstantinopoulou Renewing")
    renewing = make_membership(user=holder, plan=plan)
    Membership.objects.filter(pk=renewing.pk).update(stripe_subscription_id="sub_phone")
    Announcement.objects.create(text="The courts close at 6 pm on Friday for the club's summer tournament.")
    contact = ContactMessage.objects.create(
        name="Vic Visitor", email=LONG_EMAIL, message="Is the club open on Sunday? " * 20
    )
    send_mail("Your booking of Centre Court With A Long Name", "See you there.", None, [LONG_EMAIL])
    [mail] = mailbox.messages()
    return Club(
        bookings=approved,
        shown_booking={USER: approved[USER], MEMBER: confirmed, ADMIN: confirmed},
        payment=payment,
        contact=contact,
        mail_id=mail.id,
        unsubscribe_token=unsubscribe_token(user=member, optional="reminders"),
        invitation_token=invitation_token(invited),
        plan=plan,
        program=program,
        registrations=registrations,
        series=series,
    )


def addresses(route: str, role: str, club: Club) -> list[str]:
    """The addresses of a route's pages that `role` opens: its own things where it names one."""
    filled = {
        "blog/<int:post_id>": lambda: [f"blog/{post.id}" for post in BLOG_POSTS],
        "unsubscribe/<str:token>": lambda: [f"unsubscribe/{club.unsubscribe_token}"],
        "invitations/<str:token>": lambda: [f"invitations/{club.invitation_token}"],
        "local/mail/<str:mail_id>": lambda: [f"local/mail/{club.mail_id}"],
        "dashboard/bookings/<int:booking_id>": lambda: [f"dashboard/bookings/{club.shown_booking[role].pk}"],
        "dashboard/payment-page/<int:booking_id>": lambda: [
            f"dashboard/payment-page/{club.bookings[role].pk}"
        ],
        "dashboard/payments/<int:payment_id>/receipt": lambda: [
            f"dashboard/payments/{club.payment.pk}/receipt"
        ],
        "dashboard/support-inbox/<int:contact_id>": lambda: [f"dashboard/support-inbox/{club.contact.pk}"],
        "membership/join/<int:plan_id>": lambda: [f"membership/join/{club.plan.pk}"],
        "programs/<int:program_id>": lambda: [f"programs/{club.program.pk}"],
        "programs/<int:program_id>/participants": lambda: [f"programs/{club.program.pk}/participants"],
        "dashboard/manage-programs/<int:program_id>": lambda: [
            f"dashboard/manage-programs/{club.program.pk}"
        ],
        "dashboard/series/<int:series_id>/payment-page": lambda: [
            f"dashboard/series/{club.series.pk}/payment-page"
        ],
        "dashboard/registrations/<int:registration_id>/payment-page": lambda: [
            f"dashboard/registrations/{club.registrations[role].pk}/payment-page"
        ],
        "schedule": lambda: ["schedule", f"schedule?date={club.bookings[USER].date.isoformat()}"],
    }
    paths = filled[route]() if route in filled else [route]
    return ["/" + path for path in paths]


def pages_of(role: str, club: Club) -> list[str]:
    pages = [path for route, who in PAGES.items() if role in who for path in addresses(route, role, club)]
    return pages + [path for path, who in MORE_PAGES.items() if role in who]


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    """The module's pages are a phone's."""
    return {**browser_context_args, "viewport": PHONE}


# How wide the page is, and what sticks out past the screen's right edge (the innermost elements,
# named as a selector would), so that a failure says where to look.
MEASURE = """(screen) => {
    const beyond = (element) => element.getBoundingClientRect().right > screen + 0.5;
    const clipped = (element) => {
        for (let box = element.parentElement; box; box = box.parentElement) {
            if (box !== document.body && getComputedStyle(box).overflowX !== "visible") return true;
        }
        return false;
    };
    const out = [...document.body.querySelectorAll("*")].filter((element) =>
        element.getBoundingClientRect().width > 0 && beyond(element) && !clipped(element)
        && (getComputedStyle(element).overflowX !== "visible" || ![...element.children].some(beyond)));
    const name = (element) => element.tagName.toLowerCase()
        + (element.id ? "#" + element.id : "")
        + [...element.classList].slice(0, 3).map((c) => "." + c).join("");
    return {
        width: document.documentElement.scrollWidth,
        outside: out.slice(0, 3).map((element) => `${name(element.parentElement)} > ${name(element)}`
            + ` ends at ${Math.round(element.getBoundingClientRect().right)} px`),
    };
}"""
MENU_BUTTONS = "summary[aria-label='Open the menu'], [aria-label='Open the dashboard menu']"


def phone_faults(page: Page, paths: list[str], site: str) -> dict[str, str]:
    """Each page's faults on the phone's screen: its width beyond the screen's, the menu button
    not whole on screen."""
    under_way = requests_under_way(page)
    faults = {}
    for path in paths:
        page.goto(site + path)
        wait_until_settled(page, under_way)
        found = []
        measured = page.evaluate(MEASURE, PHONE["width"])
        if measured["width"] > PHONE["width"]:
            found.append(f"the page is {measured['width']} px wide: " + "; ".join(measured["outside"]))
        menu = page.locator(MENU_BUTTONS).filter(visible=True)
        box = menu.bounding_box() if menu.count() == 1 else None
        if box is None:
            found.append(f"{menu.count()} menu buttons")
        elif not (0 <= box["x"] <= box["x"] + box["width"] <= PHONE["width"] and box["y"] >= 0):
            found.append(f"the menu button spans {box['x']:.0f} to {box['x'] + box['width']:.0f} px")
        if found:
            faults[path] = ", ".join(found)
    return faults


@pytest.mark.parametrize("role", [VISITOR, USER, MEMBER, ADMIN])
def test_no_page_scrolls_sideways_on_a_phone(site: str, page: Page, localstripe, club, role):
    paths = pages_of(role, club)
    if role != VISITOR:
        sign_in(page, site, EMAILS[role], "/dashboard")

    faults = phone_faults(page, paths, site)
    assert not faults, "\n".join(f"{path}: {fault}" for path, fault in faults.items())


def test_a_pager_shows_its_page_numbers_from_a_tablet_up(site: str, page: Page, club):
    sign_in(page, site, EMAILS[ADMIN], "/dashboard/manage-bookings?page=3")
    pager = page.get_by_role("navigation", name="Pages")

    for link in ["Prev", "3", "Next"]:
        expect(pager.get_by_role("link", name=link, exact=True)).to_be_visible()
    expect(pager.get_by_role("link", name="2", exact=True)).to_be_hidden()

    page.set_viewport_size({"width": 1366, "height": 844})
    for link in ["Prev", "1", "2", "3", "4", "Next"]:
        expect(pager.get_by_role("link", name=link, exact=True)).to_be_visible()
