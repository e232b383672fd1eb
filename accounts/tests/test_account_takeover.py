"""A record belongs to one provider account: a look-alike e-mail, an unverified one, or an e-mail
changed to someone else's never takes over another person's record (their role, their bookings)."""

import pytest
from django.core.management import call_command
from django.test import Client
from firebase_admin import auth

from accounts.identity import _app
from accounts.models import User
from bookings.tests.factories import make_booking

from .test_session import COOKIE, post_session

pytestmark = pytest.mark.django_db

LOOK_ALIKES = [" ann@example.com", "ann@example.com ", "\tann@example.com"]


@pytest.fixture
def ann(emulator):
    """An admin who has signed in before."""
    assert post_session(Client(), emulator.sign_up("ann@example.com")["idToken"]).status_code == 200
    User.objects.filter(email="ann@example.com").update(role=User.Role.ADMIN)
    return User.objects.get(email="ann@example.com")


def role_with_bearer(id_token: str, email: str = "ann@example.com"):
    return Client().get(f"/api/users/{email}/role", headers={"Authorization": f"Bearer {id_token}"})


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_look_alike_email_cannot_sign_in_as_the_person_it_imitates(client, emulator, ann, look_alike):
    # Even with the look-alike address verified, it is not the admin's.
    attacker = emulator.sign_up(look_alike, "attacker-pass-1")

    response = post_session(client, attacker["idToken"])

    assert response.status_code == 401
    assert "not valid" in response.json()["detail"]
    assert COOKIE not in response.cookies
    ann.refresh_from_db()
    assert ann.firebase_uid != attacker["localId"]
    assert not User.objects.filter(firebase_uid=attacker["localId"]).exists()


@pytest.mark.parametrize("look_alike", LOOK_ALIKES)
def test_a_look_alike_email_cannot_call_the_api_as_the_person_it_imitates(emulator, ann, look_alike):
    attacker = emulator.sign_up(look_alike, "attacker-pass-1")

    response = role_with_bearer(attacker["idToken"])

    assert response.status_code == 401
    assert "not valid" in response.json()["detail"]
    ann.refresh_from_db()
    assert ann.firebase_uid != attacker["localId"]


def test_a_record_made_by_make_admin_is_not_taken_by_an_unverified_registration(client, emulator):
    call_command("make_admin", "new@example.com")
    stranger = emulator.sign_up("new@example.com", "stranger-pass-1", verified=False)

    response = post_session(client, stranger["idToken"])
    api_response = role_with_bearer(stranger["idToken"], "new@example.com")

    assert response.status_code == 403
    assert response.json()["code"] == "email_not_verified"
    assert response.json()["detail"].startswith("Please verify your e-mail address first")
    assert COOKIE not in response.cookies
    assert api_response.status_code == 401
    assert "verify your e-mail address" in api_response.json()["detail"]
    assert User.objects.get(email="new@example.com").firebase_uid is None


def test_the_record_becomes_theirs_once_the_email_is_verified(client, emulator):
    call_command("make_admin", "new@example.com")
    owner = emulator.sign_up("new@example.com", verified=False)
    assert post_session(client, owner["idToken"]).status_code == 403

    emulator.update(owner["localId"], emailVerified=True)
    response = post_session(client, emulator.sign_in("new@example.com")["idToken"])

    assert response.status_code == 200
    assert response.json()["role"] == "admin"
    assert User.objects.get(email="new@example.com").firebase_uid == owner["localId"]


def test_a_deleted_accounts_record_and_bookings_go_only_to_a_verified_email(client, emulator):
    first = emulator.sign_up("ada@example.com")
    post_session(Client(), first["idToken"])
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(user=ada)
    auth.delete_user(first["localId"], app=_app())  # the account is gone at the provider
    newcomer = emulator.sign_up("ada@example.com", "newcomer-pass-1", verified=False)

    refused = post_session(client, newcomer["idToken"])

    assert refused.status_code == 403
    assert User.objects.get(pk=ada.pk).firebase_uid == first["localId"]

    emulator.update(newcomer["localId"], emailVerified=True)
    accepted = post_session(client, emulator.sign_in("ada@example.com", "newcomer-pass-1")["idToken"])

    assert accepted.status_code == 200
    assert User.objects.get(pk=ada.pk).firebase_uid == newcomer["localId"]
    assert booking.user_id == ada.pk


def test_a_new_unverified_registration_signs_in_to_a_record_of_its_own(client, emulator):
    response = post_session(client, emulator.sign_up("zoe@example.com", verified=False)["idToken"])

    assert response.status_code == 200
    assert User.objects.get().email == "zoe@example.com"


def test_an_email_changed_to_another_records_answers_409_and_changes_nothing(client, emulator):
    ada = emulator.sign_up("ada@example.com")
    post_session(client, ada["idToken"])
    call_command("make_admin", "carol@example.com")  # not signed in yet
    emulator.update(ada["localId"], email="carol@example.com")

    response = post_session(Client(), emulator.sign_in("carol@example.com")["idToken"])

    assert response.status_code == 409
    assert "belongs to another account" in response.json()["detail"]
    assert User.objects.get(firebase_uid=ada["localId"]).email == "ada@example.com"
    assert User.objects.get(email="carol@example.com").firebase_uid is None


@pytest.mark.parametrize(
    ("photo", "stored"),
    [
        ("javascript:alert(document.cookie)", ""),
        ("http://example.com/ada.png", ""),
        ("https://example.com/ada.png", "https://example.com/ada.png"),
    ],
)
def test_only_an_https_photo_from_the_provider_is_stored(client, emulator, photo, stored):
    account = emulator.sign_up("ada@example.com")
    emulator.update(account["localId"], photoUrl=photo)

    response = post_session(client, emulator.sign_in("ada@example.com")["idToken"])

    assert response.status_code == 200
    assert User.objects.get().image == stored


@pytest.mark.parametrize(
    "email",
    [
        # No space in it, as the browser reads it: <meta http-equiv=refresh content=...>.
        '"<meta/http-equiv=refresh/content=0;url=https://evil.example>"@example.com',
        '"ada.lovelace"@example.com',
    ],
)
def test_an_email_with_a_quoted_local_part_is_refused_at_sign_in(client, emulator, email):
    account = emulator.sign_up(email, "attacker-pass-1")

    response = post_session(client, account["idToken"])

    assert response.status_code == 401
    assert response.json()["detail"] == (
        "This account's e-mail address is not accepted: a quoted name before the @ is not, "
        "so please sign in with an address like name@example.com."
    )
    assert COOKIE not in response.cookies
    assert not User.objects.exists()
