import re

import pytest
from django.utils import timezone

from accounts.models import User
from courts.tests.factories import CourtFactory
from kernel.days import day

pytestmark = pytest.mark.django_db


def sidebar(html: str) -> list[tuple[str, str]]:
    nav = re.search(r'<nav aria-label="Dashboard">.*?</nav>', html, re.S).group(0)
    return re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)


def test_a_users_dashboard_shows_their_profile_card(sign_in_as):
    client = sign_in_as("ada@example.com", name="Ada Lovelace")
    created = User.objects.get().created_at

    html = client.get("/dashboard").content.decode()

    card = re.search(r'data-testid="profile-card".*?</section>', html, re.S).group(0)
    assert "Ada Lovelace" in card
    assert "ada@example.com" in card
    assert "Registered on" in card
    assert day(created) in card
    assert "img/default-avatar." in card
    assert 'alt="Ada Lovelace"' in card
    assert "Became member on" not in html
    assert 'data-testid="club-counts"' not in html


def test_a_members_dashboard_also_shows_when_they_became_a_member(sign_in_as):
    client = sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park")
    User.objects.filter(email="mia@example.com").update(member_since=timezone.now())

    html = client.get("/dashboard").content.decode()

    assert "Became member on" in html


def test_an_admins_dashboard_counts_courts_users_and_members(sign_in_as):
    client = sign_in_as("ann@example.com", User.Role.ADMIN)
    CourtFactory.create_batch(3)
    User.objects.create_user("m1@example.com", role=User.Role.MEMBER)
    User.objects.create_user("m2@example.com", role=User.Role.MEMBER)
    User.objects.create_user("u1@example.com")

    html = client.get("/dashboard").content.decode()

    counts = re.search(r'data-testid="club-counts".*?</dl>', html, re.S).group(0)
    assert re.findall(r"<dt[^>]*>([^<]+)</dt><dd[^>]*>(\d+)</dd>", counts) == [
        ("Total Courts", "3"),
        ("Total Users", "4"),
        ("Total Members", "2"),
    ]


@pytest.mark.parametrize(
    ("role", "labels"),
    [
        (
            User.Role.USER,
            [
                "Dashboard Home",
                "My Bookings",
                "My Waitlist",
                "Pending Bookings",
                "Approved Bookings",
                "Announcements",
                "My Profile",
            ],
        ),
        (
            User.Role.MEMBER,
            [
                "Dashboard Home",
                "My Bookings",
                "My Waitlist",
                "Pending Bookings",
                "Approved Bookings",
                "Confirmed Bookings",
                "Payment History",
                "Announcements",
                "My Profile",
            ],
        ),
        (
            User.Role.ADMIN,
            [
                "Dashboard Home",
                "Booking Approvals",
                "Manage Members",
                "All Users",
                "Manage Courts",
                "Manage Programs",
                "Manage Bookings",
                "Club Rules",
                "Reports",
                "Ledger",
                "Audit Trail",
                "Manage Coupons",
                "Membership Plans",
                "Make Announcements",
                "Support Inbox",
                "My Profile",
            ],
        ),
    ],
)
def test_the_sidebar_shows_the_links_of_the_callers_role(sign_in_as, role, labels):
    client = sign_in_as("someone@example.com", role)

    links = sidebar(client.get("/dashboard").content.decode())

    assert [label for _, label in links] == labels
    for url, _ in links:
        assert client.get(url).status_code == 200, url


def test_the_dashboard_layout_has_a_drawer_toggle_and_a_logo_linking_home(sign_in_as):
    html = sign_in_as().get("/dashboard").content.decode()

    assert '<input id="dashboard-drawer" type="checkbox" class="drawer-toggle"' in html
    assert re.search(r'<label for="dashboard-drawer" class="[^"]*drawer-button[^"]*"', html)
    assert re.search(
        r'<aside[^>]*>\s*<a href="/"[^>]*>\s*<img src="/static/img/logo\.[0-9a-f]{12}\.svg"', html
    )


def test_the_signed_in_navbar_shows_the_avatar_menu_instead_of_sign_in(sign_in_as):
    client = sign_in_as("ada@example.com", name="Ada Lovelace")
    User.objects.filter(email="ada@example.com").update(image="https://img.example.com/ada.png")

    html = client.get("/").content.decode()

    menu = re.search(
        r'<details class="dropdown dropdown-end" data-testid="account-menu">.*?</details>', html, re.S
    )
    assert menu
    assert '<img src="https://img.example.com/ada.png" alt="Ada Lovelace"' in menu.group(0)
    assert ">Ada Lovelace</p>" in menu.group(0)
    assert re.search(r'href="/dashboard"[^>]*>Dashboard</a>', menu.group(0))
    assert re.search(r'<form method="post" action="/logout">.*?>Logout</button>', menu.group(0), re.S)
    assert ">Sign In</a>" not in html


def test_without_a_name_the_menu_shows_the_email_and_the_avatar_says_user(sign_in_as):
    client = sign_in_as("ada@example.com", name="")

    html = client.get("/").content.decode()

    assert ">ada@example.com</p>" in html
    assert 'alt="User"' in html
    assert "img/default-avatar." in html


def test_logging_out_clears_the_session_and_says_so_on_the_home_page(sign_in_as):
    client = sign_in_as()

    response = client.post("/logout", follow=True)

    assert response.redirect_chain == [("/", 302)]
    assert "Logged out successfully!" in response.content.decode()
    assert ">Sign In</a>" in response.content.decode()
    assert client.get("/dashboard").status_code == 302


def test_logging_out_needs_a_post(sign_in_as):
    assert sign_in_as().get("/logout").status_code == 405
