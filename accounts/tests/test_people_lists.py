"""The admin's lists of people at a club's size: the page carries the first 25, the island asks the
API for the others, searched and filtered on the server."""

from datetime import UTC, datetime

import pytest

from accounts.models import User
from testing.islands import island_props

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(sign_in_as):
    return sign_in_as("ann@example.com", User.Role.ADMIN)


def test_the_users_page_carries_the_first_page_and_the_total(admin):
    User.objects.bulk_create(User(email=f"person{number:03}@example.com") for number in range(60))

    props = island_props(admin.get("/dashboard/manage-users").content.decode())

    assert len(props["rows"]) == props["pageSize"] == 25
    assert props["total"] == 61
    assert props["url"] == "/api/users"


def test_the_members_page_carries_the_first_page_of_members_only(admin):
    User.objects.bulk_create(
        User(email=f"member{number:03}@example.com", role="member") for number in range(30)
    )
    User.objects.bulk_create(User(email=f"user{number:03}@example.com") for number in range(30))

    props = island_props(admin.get("/dashboard/manage-members").content.decode())

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
