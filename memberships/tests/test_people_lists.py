"""The admin's lists of people, All Users and Manage Members, at a club's size: the page carries the
first 25, the island asks the API for the others, searched and filtered on the server; each person
with their plan, its state and when it renews or ends, in the same queries however many hold one."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from kernel.days import day
from memberships.services import (
    membership_cancel_at_period_end,
    membership_end,
    membership_open,
    membership_renewal_failed,
)
from memberships.tests.factories import make_membership, make_plan
from testing.islands import island_props

pytestmark = pytest.mark.django_db

USERS_PAGE, MEMBERS_PAGE = "/dashboard/manage-users", "/dashboard/manage-members"


@pytest.fixture
def admin(sign_in_as):
    return sign_in_as("ann@example.com", User.Role.ADMIN)


@pytest.fixture
def named_people(sign_in_as):
    """Ada (a user), Bob (another user), Mia (a member) and Ann (an admin), each signed in."""
    return {
        "user": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }


def test_the_users_page_carries_the_first_page_and_the_total(admin):
    User.objects.bulk_create(User(email=f"person{number:03}@example.com") for number in range(60))

    props = island_props(admin.get(USERS_PAGE).content.decode())

    assert len(props["rows"]) == props["pageSize"] == 25
    assert props["total"] == 61
    assert props["url"] == "/api/users"


def test_the_members_page_carries_the_first_page_of_members_only(admin):
    User.objects.bulk_create(
        User(email=f"member{number:03}@example.com", role="member") for number in range(30)
    )
    User.objects.bulk_create(User(email=f"user{number:03}@example.com") for number in range(30))

    props = island_props(admin.get(MEMBERS_PAGE).content.decode())

    assert len(props["rows"]) == 25
    assert props["total"] == 30
    assert {member["email"][:6] for member in props["rows"]} == {"member"}
    assert props["url"] == "/api/members"


def test_users_are_searched_and_filtered_by_role_on_the_server(admin):
    User.objects.create_user("grace@example.com", role=User.Role.MEMBER, name="Grace Hopper")
    User.objects.create_user("grace.user@example.com", name="Grace Kelly")

    members = admin.get("/api/users", {"search": "GRACE", "role": "member"})
    everyone = admin.get("/api/users", {"search": "grace"})

    assert [user["email"] for user in members.json()] == ["grace@example.com"]
    assert members["X-Total-Count"] == "1"
    assert everyone["X-Total-Count"] == "2"


def test_an_unknown_role_is_a_400_that_says_why(admin):
    response = admin.get("/api/users", {"role": "owner"})

    assert response.status_code == 400
    assert response.json() == {"role": ['"owner" is not a valid choice.']}


def test_members_are_searched_and_paged_on_the_server(admin):
    User.objects.bulk_create(
        User(email=f"member{number:03}@example.com", role="member") for number in range(30)
    )

    page = admin.get("/api/members", {"search": "member0", "limit": 25, "offset": 25})

    assert [member["email"] for member in page.json()] == [
        f"member{number:03}@example.com" for number in range(25, 30)
    ]
    assert page["X-Total-Count"] == "30"


def test_the_lists_send_each_date_written_as_the_club_writes_it(admin, settings):
    settings.TIME_ZONE = "America/New_York"
    # 02:05 UTC is still the evening before in New York.
    moment = datetime(2026, 3, 4, 2, 5, tzinfo=UTC)
    User.objects.create_user("grace@example.com", role=User.Role.MEMBER)
    User.objects.filter(email="grace@example.com").update(
        created_at=moment, last_login=moment, member_since=moment
    )
    User.objects.create_user("ada@example.com")

    users = {user["email"]: user for user in admin.get("/api/users").json()}
    [member] = admin.get("/api/members").json()

    grace = users["grace@example.com"]
    assert (grace["createdAtLabel"], grace["lastLoginLabel"]) == ("March 3, 2026, 9:05 PM",) * 2
    assert users["ada@example.com"]["lastLoginLabel"] is None  # the island says "Never"
    assert member["createdAtLabel"] == "March 3, 2026"


# --- Who may list them ---------------------------------------------------------------------------


@pytest.mark.parametrize(("caller", "status"), [("user", 403), ("member", 403), ("admin", 200)])
def test_only_admins_list_the_users(named_people, caller, status):
    response = named_people[caller].get("/api/users")

    assert response.status_code == status


def test_anonymous_callers_cannot_list_the_users(named_people):
    response = Client().get("/api/users")

    assert response.status_code == 401
    assert response.json() == {"detail": "Authentication credentials were not provided."}


@pytest.mark.parametrize(
    ("kind", "where"),
    [("anonymous", "/login?next={page}"), ("owner", "/forbidden"), ("member", "/forbidden")],
)
@pytest.mark.parametrize("page", [USERS_PAGE, MEMBERS_PAGE])
def test_only_admins_open_the_people_pages(people, kind, where, page):
    response = people[kind].get(page)

    assert (response.status_code, response["Location"]) == (302, where.format(page=page))


@pytest.mark.parametrize(
    ("search", "emails"),
    [
        ("", ["ada@example.com", "bob@example.com", "mia@example.com", "ann@example.com"]),
        ("ada", ["ada@example.com"]),
        ("STONE", ["bob@example.com"]),
        ("  park ", ["mia@example.com"]),
        ("EXAMPLE.COM", ["ada@example.com", "bob@example.com", "mia@example.com", "ann@example.com"]),
        ("zzz", []),
    ],
)
def test_admins_search_users_by_name_or_email_in_any_case(named_people, search, emails):
    response = named_people["admin"].get("/api/users", {"search": search})

    assert [user["email"] for user in response.json()] == emails


# --- Their memberships ---------------------------------------------------------------------------


def person(email: str, role: str = User.Role.USER) -> User:
    return User.objects.create_user(email, role=role)


@pytest.fixture
def club(admin):
    """People in each state a membership has, of two plans: Ada's monthly Club plan renews, Eve's
    ends with its period as she asked, Mia's yearly Premium plan is past due, Bob has yet to pay
    for his; Dan became a member by paying for a booking (the club's rule without plans), and
    Carl's membership is over."""
    plans = {"club": make_plan(name="Club", period="monthly"), "premium": make_plan(name="Premium")}
    held = {
        "ada": make_membership(user=person("ada@example.com"), plan=plans["club"], days=30),
        "eve": make_membership(user=person("eve@example.com"), plan=plans["club"], days=10),
        "mia": make_membership(user=person("mia@example.com"), plan=plans["premium"], days=300),
        "carl": make_membership(user=person("carl@example.com"), plan=plans["club"]),
    }
    membership_cancel_at_period_end(membership_id=held["eve"].pk)
    grace = timezone.now() + timedelta(days=7)
    membership_renewal_failed(membership_id=held["mia"].pk, grace_until=grace, reason="Card declined.")
    membership_end(membership_id=held["carl"].pk, reason="Its period is over.")
    membership_open(user=person("bob@example.com"), plan=plans["premium"])
    person("dan@example.com", User.Role.MEMBER)
    return {"grace": grace, **{name: membership.period_end for name, membership in held.items()}}


def shown(row: dict) -> tuple | None:
    """What a list says of a person's membership: plan, state, renews or ends, on which day."""
    membership = row["membership"]
    if membership is None:
        return None
    renews = membership["renews"] and not membership["cancelAtPeriodEnd"]
    return (
        membership["plan"]["name"],
        membership["statusLabel"],
        "renews" if renews else "ends",
        membership["periodEndLabel"],
        membership["graceUntilLabel"],
    )


def test_all_users_shows_each_persons_plan_state_and_renewal_or_end(admin, club):
    from_api = {row["email"]: shown(row) for row in admin.get("/api/users").json()}
    from_page = {
        row["email"]: shown(row) for row in island_props(admin.get(USERS_PAGE).content.decode())["rows"]
    }

    assert (
        from_api
        == from_page
        == {
            "ann@example.com": None,
            "ada@example.com": ("Club", "Active", "renews", day(club["ada"]), None),
            "eve@example.com": ("Club", "Active", "ends", day(club["eve"]), None),
            "mia@example.com": ("Premium", "Past due", "renews", day(club["mia"]), day(club["grace"])),
            "carl@example.com": None,
            "bob@example.com": ("Premium", "Awaiting payment", "renews", None, None),
            "dan@example.com": None,
        }
    )


def test_manage_members_shows_each_members_plan_state_and_renewal_or_end(admin, club):
    from_api = {row["email"]: shown(row) for row in admin.get("/api/members").json()}
    from_page = {
        row["email"]: shown(row) for row in island_props(admin.get(MEMBERS_PAGE).content.decode())["rows"]
    }

    assert (
        from_api
        == from_page
        == {
            "ada@example.com": ("Club", "Active", "renews", day(club["ada"]), None),
            "eve@example.com": ("Club", "Active", "ends", day(club["eve"]), None),
            "mia@example.com": ("Premium", "Past due", "renews", day(club["mia"]), day(club["grace"])),
            "dan@example.com": None,
        }
    )


def test_the_membership_filters_nothing_out_of_the_search(admin, club):
    """The join that brings each person's membership neither drops nor repeats anyone."""
    response = admin.get("/api/users", {"search": "example.com", "limit": 3})

    assert response["X-Total-Count"] == "7"
    assert len({row["email"] for row in admin.get("/api/users", {"limit": 100}).json()}) == 7


@pytest.mark.parametrize("path", ["/api/users", "/api/members", USERS_PAGE, MEMBERS_PAGE])
def test_the_lists_cost_three_queries_however_many_hold_a_plan(admin, django_assert_num_queries, path):
    plan = make_plan(name="Club")
    for number in range(30):
        make_membership(user=person(f"holder{number:02}@example.com"), plan=plan)

    # the caller's record (with whether their cookie was signed out), the count of the whole list,
    # and the page of 25 with each person's membership and plan (a query a row would be 25 more)
    with django_assert_num_queries(3):
        response = admin.get(path)

    rows = response.json() if path.startswith("/api/") else island_props(response.content.decode())["rows"]
    held = [row["membership"]["plan"]["name"] for row in rows if row["membership"]]
    assert held == ["Club"] * (24 if path in ("/api/users", USERS_PAGE) else 25)  # Ann, an admin, holds none
