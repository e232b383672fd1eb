"""Roles: an admin makes someone an admin or takes it back (PATCH /api/users/{email}/role); the club
always keeps one admin, even when two admins take it from each other at once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from accounts.services import user_set_admin
from testing.concurrency import at_once

pytestmark = pytest.mark.django_db


def set_admin(client, email: str, admin):
    return client.patch(f"/api/users/{email}/role", {"admin": admin}, content_type="application/json")


def role_of(email: str) -> str:
    return User.objects.get(email=email).role


def test_an_admin_makes_a_user_an_admin_and_takes_it_back(people):
    response = set_admin(people["admin"], "bob@example.com", True)

    assert response.status_code == 200
    assert response.json()["role"] == "admin"
    assert role_of("bob@example.com") == "admin"
    assert set_admin(people["admin"], "bob@example.com", False).json()["role"] == "user"


def test_a_former_member_goes_back_to_being_a_member(people):
    set_admin(people["admin"], "mia@example.com", True)
    User.objects.filter(email="mia@example.com").update(member_since=timezone.now() - timedelta(days=9))

    assert set_admin(people["admin"], "mia@example.com", False).json()["role"] == "member"


@pytest.mark.parametrize(("kind", "status_code"), [("anonymous", 401), ("owner", 403), ("member", 403)])
def test_nobody_but_an_admin_changes_who_is_an_admin(people, kind, status_code):
    response = set_admin(people[kind], "bob@example.com", True)

    assert response.status_code == status_code
    assert role_of("bob@example.com") == "user"


@pytest.mark.parametrize(("body", "status_code"), [({"admin": "perhaps"}, 400), ({}, 400)])
def test_a_bad_body_gets_a_message_under_its_field(people, body, status_code):
    response = people["admin"].patch("/api/users/bob@example.com/role", body, content_type="application/json")

    assert response.status_code == status_code
    assert "admin" in response.json()


def test_an_unknown_person_is_not_found(people):
    assert set_admin(people["admin"], "nobody@example.com", True).status_code == 404


def test_the_last_admin_cannot_be_demoted_even_by_themselves(people):
    response = set_admin(people["admin"], "ann@example.com", False)

    assert response.status_code == 409
    assert "last admin" in response.json()["detail"]
    assert role_of("ann@example.com") == "admin"


def test_with_two_admins_one_may_step_down(people):
    set_admin(people["admin"], "bob@example.com", True)

    assert set_admin(people["admin"], "ann@example.com", False).json()["role"] == "user"
    assert role_of("bob@example.com") == "admin"


@pytest.mark.django_db(transaction=True)
def test_two_admins_demoting_each_other_at_once_leave_one_admin():
    ann = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    bob = User.objects.create_user("bob@example.com", role=User.Role.ADMIN)

    answers = at_once(
        [
            lambda: user_set_admin(user=bob, admin=False, by=ann),
            lambda: user_set_admin(user=ann, admin=False, by=bob),
        ]
    )

    assert User.objects.filter(role=User.Role.ADMIN).count() == 1
    # The second, in turn, is no longer an admin (or, had it come first, found the last admin).
    assert sorted(type(answer).__name__ for answer in answers) in (
        ["Forbidden", "User"],
        ["LastAdmin", "User"],
    )
