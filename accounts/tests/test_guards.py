"""Every dashboard page, for every kind of caller (docs/rules.md, Roles)."""

import html
from urllib.parse import quote

import pytest
from django.contrib import admin

from accounts.models import User
from club.admin_site import ClubAdminSite

pytestmark = pytest.mark.django_db

ANY_SIGNED_IN = {"user", "member", "admin"}
MEMBERS = {"member"}
ADMINS = {"admin"}

PAGES = {
    "/dashboard": ANY_SIGNED_IN,
    "/dashboard/my-bookings": ANY_SIGNED_IN,
    "/dashboard/pending-bookings": ANY_SIGNED_IN,
    "/dashboard/announcements": ANY_SIGNED_IN,
    "/dashboard/profile": ANY_SIGNED_IN,
    "/dashboard/approved-bookings": ANY_SIGNED_IN,
    "/dashboard/confirmed-bookings": MEMBERS,
    "/dashboard/payment-history": MEMBERS,
    "/dashboard/manage-courts": ADMINS,
    "/dashboard/manage-users": ADMINS,
    "/dashboard/manage-members": ADMINS,
    "/dashboard/manage-bookings": ADMINS,
    "/dashboard/manage-bookings-approval": ADMINS,
    "/dashboard/manage-coupons": ADMINS,
    "/dashboard/membership-plans": ADMINS,
    "/dashboard/make-announcements": ADMINS,
    "/dashboard/support-inbox": ADMINS,
}

ROLES = {"user": User.Role.USER, "member": User.Role.MEMBER, "admin": User.Role.ADMIN}


@pytest.mark.parametrize("path", PAGES)
def test_each_dashboard_page_lets_in_exactly_its_roles(caller, path):
    kind, client = caller

    response = client.get(path)

    if kind == "anonymous":
        assert response.status_code == 302
        assert response["Location"] == f"/login?next={quote(path, safe='/')}"
    elif kind in PAGES[path]:
        assert response.status_code == 200
        assert 'class="drawer lg:drawer-open' in response.content.decode()
    else:
        assert response.status_code == 302
        assert response["Location"] == "/forbidden"


def test_the_sign_in_page_sends_a_signed_in_person_back_to_where_they_were_going(sign_in_as):
    client = sign_in_as()

    response = client.get("/login", {"next": "/dashboard/pending-bookings"})

    assert response.status_code == 302
    assert response["Location"] == "/dashboard/pending-bookings"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_a_next_page_elsewhere_is_ignored(client, target):
    response = client.get("/login", {"next": target})

    assert response.context["island_props"]["next"] == "/"


def test_a_protected_page_opens_from_the_verified_cookie_when_the_provider_cannot_be_asked(
    sign_in_as, request, settings
):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 0  # the sign-in's check is not kept: ask again
    client = sign_in_as()
    request.getfixturevalue("identity_provider_down")

    response = client.get("/dashboard")

    assert response.status_code == 200
    assert "We can't check your sign-in right now" not in html.unescape(response.content.decode())


@pytest.mark.parametrize(("kind", "status"), [("user", 302), ("member", 302), ("admin", 200)])
def test_django_admin_opens_to_admins_only(sign_in_as, kind, status):
    client = sign_in_as(f"{kind}@example.com", ROLES[kind])

    response = client.get("/admin/")

    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/admin/login/")
        assert client.get(response["Location"])["Location"] == "/forbidden"


def test_django_admin_sends_a_signed_out_visitor_to_sign_in(client):
    response = client.get("/admin/", follow=True)

    assert response.redirect_chain[-1][0] == "/login?next=/admin/"


def test_django_admin_is_the_clubs_own_site():
    assert isinstance(admin.site, ClubAdminSite)
