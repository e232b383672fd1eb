"""The club keeps one active admin whichever way an admin is taken away: demoted on the site,
deactivated or deleted in Django admin; an admin who cannot sign in (deactivated) does not count,
and `manage.py make_admin` gives the club an active one back."""

import pytest
from django.core.management import call_command

from accounts.models import User

pytestmark = pytest.mark.django_db

LAST_ADMIN = "This is the club&#x27;s last admin: make someone else an admin first."


def ann() -> User:
    return User.objects.get(email="ann@example.com")


def deactivate(client, user: User):
    form = {"email": user.email, "name": user.name, "image": ""}  # is_active unticked
    return client.post(f"/admin/accounts/user/{user.pk}/change/", form, follow=True)


def test_deactivating_the_last_active_admin_in_django_admin_is_refused_on_the_page(people):
    response = deactivate(people["admin"], ann())

    assert response.status_code == 200
    assert LAST_ADMIN in response.content.decode()
    assert ann().is_active


def test_with_another_active_admin_an_admin_is_deactivated(people):
    User.objects.filter(email="bob@example.com").update(role=User.Role.ADMIN)

    response = deactivate(people["admin"], ann())

    assert "was changed successfully" in response.content.decode()
    assert not ann().is_active


def test_deleting_the_last_active_admin_in_django_admin_is_refused_on_the_page(people):
    response = people["admin"].post(f"/admin/accounts/user/{ann().pk}/delete/", {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert LAST_ADMIN in response.content.decode()
    assert User.objects.filter(email="ann@example.com").exists()


def test_deleting_the_selected_people_refuses_to_take_every_active_admin(people):
    bob = User.objects.get(email="bob@example.com")
    User.objects.filter(pk=bob.pk).update(role=User.Role.ADMIN)
    action = {"action": "delete_selected", "_selected_action": [ann().pk, bob.pk], "post": "yes"}

    response = people["admin"].post("/admin/accounts/user/", action, follow=True)

    assert response.status_code == 200
    assert LAST_ADMIN in response.content.decode()
    assert User.objects.filter(role=User.Role.ADMIN).count() == 2


def test_an_inactive_admin_does_not_keep_the_club_an_admin_on_the_site(people):
    User.objects.create_user("zed@example.com", role=User.Role.ADMIN, is_active=False)

    response = people["admin"].patch(
        "/api/users/ann@example.com/role", {"admin": False}, content_type="application/json"
    )

    assert response.status_code == 409
    assert ann().role == User.Role.ADMIN


def test_make_admin_makes_an_inactive_account_an_active_admin():
    User.objects.create_user("ann@example.com", is_active=False)

    call_command("make_admin", "ann@example.com", stdout=None)

    assert (ann().role, ann().is_active, ann().is_admin) == (User.Role.ADMIN, True, True)


def test_deleting_someone_the_audit_trail_names_is_refused_on_the_page_not_a_server_error(people):
    made = people["admin"].patch(
        "/api/users/mia@example.com/role", {"admin": True}, content_type="application/json"
    )
    assert made.status_code == 200  # Ann's action, on the trail
    User.objects.filter(email="bob@example.com").update(role=User.Role.ADMIN)

    response = people["other"].post(f"/admin/accounts/user/{ann().pk}/delete/", {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert "<title>Cannot delete user | Django site admin</title>" in response.content.decode()
    assert User.objects.filter(email="ann@example.com").exists()
