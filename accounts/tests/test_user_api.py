import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(sign_in_as):
    """Ada (a user), Bob (another user), Mia (a member) and Ann (an admin), each signed in."""
    return {
        "user": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("mia@example.com", User.Role.MEMBER, name="Mia Park"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }


# --- GET /api/users/{email}/role ---------------------------------------------------------


@pytest.mark.parametrize(
    ("caller", "email", "status", "role"),
    [
        ("user", "ada@example.com", 200, "user"),
        ("member", "mia@example.com", 200, "member"),
        ("admin", "ann@example.com", 200, "admin"),
        ("admin", "ada@example.com", 200, "user"),
        ("other", "ada@example.com", 403, None),
        ("member", "ada@example.com", 403, None),
        ("admin", "nobody@example.com", 404, None),
    ],
)
def test_a_role_is_told_to_its_owner_and_to_admins(people, caller, email, status, role):
    response = people[caller].get(f"/api/users/{email}/role")

    assert response.status_code == status
    if role:
        assert response.json() == {"role": role}
    else:
        assert response.json()["detail"]


def test_the_role_lookup_needs_a_signed_in_caller(people):
    assert Client().get("/api/users/ada@example.com/role").status_code == 401


# --- GET /api/users/email/{email} --------------------------------------------------------


@pytest.mark.parametrize(
    ("caller", "email", "status"),
    [
        ("user", "ada@example.com", 200),
        ("user", "ADA@example.com", 200),
        ("admin", "ada@example.com", 200),
        ("other", "ada@example.com", 403),
        ("member", "ada@example.com", 403),
        ("admin", "nobody@example.com", 404),
    ],
)
def test_a_user_record_is_shown_to_its_owner_and_to_admins(people, caller, email, status):
    response = people[caller].get(f"/api/users/email/{email}")

    assert response.status_code == status
    if status == 200:
        body = response.json()
        assert (body["email"], body["name"], body["role"]) == ("ada@example.com", "Ada Lovelace", "user")
        assert set(body) == {
            "id",
            "name",
            "email",
            "image",
            "role",
            "createdAt",
            "createdAtLabel",
            "lastLogin",
            "lastLoginLabel",
            "memberSince",
            "level",
        }


def test_a_user_record_needs_a_signed_in_caller(people):
    assert Client().get("/api/users/email/ada@example.com").status_code == 401


# --- POST /api/users -------------------------------------------------------------------------


def test_a_user_records_their_own_name_and_image(people):
    response = people["user"].post(
        "/api/users",
        {"name": "Ada King", "email": "ada@example.com", "image": "https://img.example.com/ada.png"},
        content_type="application/json",
    )

    assert response.status_code == 200
    ada = User.objects.get(email="ada@example.com")
    assert (ada.name, ada.image) == ("Ada King", "https://img.example.com/ada.png")


def test_a_user_names_their_own_record_in_any_case(people):
    response = people["user"].post(
        "/api/users", {"name": "Ada King", "email": " ADA@Example.com "}, content_type="application/json"
    )

    assert response.status_code == 200
    assert User.objects.get(email="ada@example.com").name == "Ada King"


def test_a_user_cannot_raise_their_own_role(people):
    response = people["user"].post(
        "/api/users",
        {"name": "Ada", "email": "ada@example.com", "role": "admin"},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert response.json()["role"] == "user"
    assert User.objects.get(email="ada@example.com").role == "user"


def test_a_user_cannot_write_another_users_record(people):
    response = people["user"].post(
        "/api/users", {"name": "Hacked", "email": "ann@example.com"}, content_type="application/json"
    )

    assert response.status_code == 403
    assert User.objects.get(email="ann@example.com").name == "Ann Admin"
    assert User.objects.get(email="ada@example.com").name == "Ada Lovelace"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": "A", "email": "nope"}, "email"),
        ({"name": "A", "image": "not a url"}, "image"),
        ({"name": "A", "image": "http://img.example.com/a.png"}, "image"),  # the pages load https only
    ],
)
def test_bad_profile_input_answers_400_per_field(people, body, field):
    response = people["user"].post("/api/users", body, content_type="application/json")

    assert response.status_code == 400
    assert field in response.json()


def test_recording_a_profile_needs_a_signed_in_caller(people):
    response = Client().post("/api/users", {"name": "X"}, content_type="application/json")

    assert response.status_code == 401


# --- GET /api/people ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("caller", "found"),
    # Whoever asks is not among those they choose their players from.
    [("user", ["Mia Park", "Zoe Parker"]), ("member", ["Zoe Parker"]), ("admin", ["Mia Park", "Zoe Parker"])],
)
def test_anyone_signed_in_finds_people_by_name_and_sees_only_names_and_public_ids(people, caller, found):
    zoe = User.objects.create_user("zoe@example.com", name="Zoe Parker", level="4.5")
    User.objects.create_user("paro@example.com", name="Paro Gone", is_active=False)

    response = people[caller].get("/api/people", {"search": "PAR"})

    assert response.status_code == 200
    assert [person["name"] for person in response.json()] == found
    assert response.json()[-1] == {"id": str(zoe.public_id), "name": "Zoe Parker", "level": "4.5"}
    assert "@" not in response.content.decode()


def test_nobody_is_found_by_their_e_mail_address(people):
    response = people["user"].get("/api/people", {"search": "mia@example.com"})

    assert (response.status_code, response.json()) == (200, [])


@pytest.mark.parametrize(
    ("query", "message"),
    [({}, "This field is required."), ({"search": "a"}, "Ensure this field has at least 2 characters.")],
)
def test_a_search_names_two_letters_at_least(people, query, message):
    response = people["user"].get("/api/people", query)

    assert response.status_code == 400
    assert response.json()["search"] == [message]


def test_a_visitor_finds_nobody(people):
    assert Client().get("/api/people", {"search": "mia"}).status_code == 401


# --- POST /api/users: one's level ----------------------------------------------------------


def test_a_level_is_set_through_the_api_and_kept_by_a_client_that_sends_none(people):
    ada = people["user"]

    assert (
        ada.post("/api/users", {"name": "Ada", "level": "5.0"}, content_type="application/json").json()[
            "level"
        ]
        == "5.0"
    )
    kept = ada.post("/api/users", {"name": "Ada L."}, content_type="application/json")
    refused = ada.post("/api/users", {"name": "Ada", "level": 9}, content_type="application/json")

    assert (kept.json()["name"], kept.json()["level"]) == ("Ada L.", "5.0")
    assert refused.status_code == 400
    assert refused.json() == {"level": ["Ensure this value is less than or equal to 7.0."]}
    cleared = ada.post("/api/users", {"name": "Ada", "level": None}, content_type="application/json")
    assert cleared.json()["level"] is None
