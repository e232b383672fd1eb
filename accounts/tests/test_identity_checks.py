"""When the site asks Firebase whether a sign-in still stands (accounts/identity.py).

Ordinary signed-in requests verify the credential here and ask the provider at most once per
person per IDENTITY_REVOCATION_CHECK_SECONDS; the sensitive operations (sign-in, payments, admin
writes) ask every time; our own sign-out and role changes are in the database and take effect at
once. The calls are counted where they arrive: firebase-admin reaches the real emulator through a
relay that counts them (testing/provider_calls.py). No mock.
"""

import os
import time

import firebase_admin
import pytest
from django.conf import settings as django_settings
from django.test import Client

from accounts import identity
from accounts.models import User
from courts.models import Court
from testing.provider_calls import CountingRelay

pytestmark = pytest.mark.django_db

COOKIE = django_settings.IDENTITY_COOKIE_NAME
REVOKED = "Your sign-in has ended. Please sign in again."


@pytest.fixture
def provider(emulator, monkeypatch):
    """The relay every call of the site to the identity provider passes through, counted."""
    relay = CountingRelay(os.environ["FIREBASE_AUTH_EMULATOR_HOST"]).start()
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", relay.host)
    yield relay
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()
    relay.stop()


def checks(provider: CountingRelay) -> int:
    """The revocation checks made so far: each is a lookup of the account's record."""
    return provider.count("lookup")


def signed_in(emulator, email: str, role: str = User.Role.USER) -> tuple[Client, dict]:
    account = emulator.sign_up(email)
    client = Client()
    response = client.post("/api/session", {"idToken": account["idToken"]}, content_type="application/json")
    assert response.status_code == 200, response.content
    User.objects.filter(email=email).update(role=role)
    return client, account


def with_cookie(cookie: str) -> Client:
    client = Client()
    client.cookies[COOKIE] = cookie
    return client


READS = ["/api/courts", "/api/bookings/pending", "/api/announcements", "/api/users/ada@example.com/role"]


def test_a_signed_in_person_is_checked_with_the_provider_once_per_interval(provider, emulator, settings):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 2
    ada, _ = signed_in(emulator, "ada@example.com")
    assert checks(provider) == 1  # the sign-in asks, and its answer is kept

    for path in READS * 3 + ["/dashboard", "/dashboard/pending-bookings"]:
        assert ada.get(path).status_code == 200, path
    assert checks(provider) == 1

    time.sleep(2.1)  # the kept answer is due again
    assert ada.get("/api/courts").status_code == 200
    assert checks(provider) == 2
    for path in READS:
        assert ada.get(path).status_code == 200
    assert checks(provider) == 2


def test_an_id_token_in_the_bearer_header_is_checked_once_per_interval(provider, emulator):
    account = emulator.sign_up("ada@example.com")
    bearer = Client(headers={"Authorization": f"Bearer {account['idToken']}"})

    for path in READS:
        assert bearer.get(path).status_code == 200, path

    assert checks(provider) == 1


def test_the_sensitive_operations_ask_the_provider_every_time(provider, emulator):
    ann, _ = signed_in(emulator, "ann@example.com", User.Role.ADMIN)
    before = checks(provider)

    assert ann.get("/api/users").status_code == 200  # an admin read: the kept answer
    assert ann.delete("/api/courts/999").status_code == 404  # admin writes: checked, then done
    assert ann.delete("/api/coupons/999").status_code == 404
    payment = ann.post("/api/create-payment-intent", {"bookingId": 999}, content_type="application/json")
    assert payment.status_code == 404

    assert checks(provider) == before + 3


def test_a_session_revoked_at_the_provider_stands_until_its_check_is_due(provider, emulator, settings):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 2
    ada, account = signed_in(emulator, "ada@example.com")
    time.sleep(1.1)  # revocation has one-second granularity
    emulator.revoke_sessions(account["localId"])

    # The trade-off: within the interval, the provider's last answer stands.
    assert ada.get("/api/bookings/pending").status_code == 200

    time.sleep(1.0)
    refused = ada.get("/api/bookings/pending")
    assert refused.status_code == 401
    assert refused.cookies[COOKIE].value == ""  # the dead cookie is dropped


def test_a_disabled_account_is_signed_out_once_its_check_is_due(provider, emulator, settings):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 1
    ada, account = signed_in(emulator, "ada@example.com")
    emulator.disable(account["localId"])
    assert ada.get("/api/bookings/pending").status_code == 200  # within the interval

    time.sleep(1.1)

    assert ada.get("/api/bookings/pending").status_code == 401


SENSITIVE = {
    "create a payment intent": ("post", "/api/create-payment-intent", {"bookingId": 1}),
    "save a payment": ("post", "/api/save-payment", {"paymentIntentId": "pi_1"}),
    "add a court": ("post", "/api/courts", {}),
    "change a court": ("patch", "/api/courts/1", {}),
    "delete a court": ("delete", "/api/courts/1", None),
    "add a coupon": ("post", "/api/coupons", {}),
    "change a coupon": ("patch", "/api/coupons/1", {}),
    "add an announcement": ("post", "/api/announcements", {}),
    "delete an announcement": ("delete", "/api/announcements/1", None),
    "end a membership": ("delete", "/api/members/1", None),
    "approve a booking": ("patch", "/api/bookings/approve/1", None),
    "reject a booking": ("patch", "/api/bookings/reject/1", None),
}


@pytest.mark.parametrize("operation", SENSITIVE)
def test_a_session_revoked_at_the_provider_is_refused_at_once_by_a_sensitive_operation(
    provider, emulator, operation
):
    ann, account = signed_in(emulator, "ann@example.com", User.Role.ADMIN)
    cookie = ann.cookies[COOKIE].value
    emulator.next_second()  # revocation has one-second granularity
    emulator.revoke_sessions(account["localId"])
    assert ann.get("/api/users").status_code == 200  # a read, within the interval: the kept answer
    method, path, body = SENSITIVE[operation]

    response = getattr(with_cookie(cookie), method)(path, body, content_type="application/json")

    assert response.status_code == 401, response.content
    assert response.json() == {"detail": REVOKED}
    assert response.cookies[COOKIE].value == ""
    # The fresh answer is kept: the same session's reads are refused from now on too.
    assert with_cookie(cookie).get("/api/users").status_code == 401


def test_signing_in_with_a_revoked_id_token_is_refused_at_once(provider, emulator):
    ada, account = signed_in(emulator, "ada@example.com")
    emulator.next_second()
    emulator.revoke_sessions(account["localId"])
    assert ada.get("/api/bookings/pending").status_code == 200  # a read: the kept answer

    again = Client().post("/api/session", {"idToken": account["idToken"]}, content_type="application/json")

    assert again.status_code == 401
    assert COOKIE not in again.cookies
    # The fresh answer is kept: the session made from that token is refused from now on too.
    assert ada.get("/api/bookings/pending").status_code == 401


def test_a_write_in_django_admin_checks_a_revoked_session_at_once(provider, emulator):
    ann, account = signed_in(emulator, "ann@example.com", User.Role.ADMIN)
    emulator.next_second()
    emulator.revoke_sessions(account["localId"])
    assert ann.get("/admin/courts/court/add/").status_code == 200  # a read: the kept answer
    lookups = checks(provider)

    response = ann.post(
        "/admin/courts/court/add/",
        {"name": "Court 9", "type": "Tennis", "price": "10", "image": "", "slots": '["08:00-09:00"]'},
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert not Court.objects.exists()
    assert checks(provider) == lookups + 1


def test_signing_out_takes_effect_at_once_without_asking_the_provider(provider, emulator):
    ada, _ = signed_in(emulator, "ada@example.com")
    copy = ada.cookies[COOKIE].value
    lookups = checks(provider)
    assert ada.get("/api/bookings/pending").status_code == 200

    assert ada.delete("/api/session").status_code == 204

    assert with_cookie(copy).get("/api/bookings/pending").status_code == 401
    assert with_cookie(copy).get("/dashboard").url.startswith("/login")
    assert checks(provider) == lookups


def test_a_role_change_takes_effect_at_once_without_asking_the_provider(provider, emulator):
    ann, _ = signed_in(emulator, "ann@example.com", User.Role.ADMIN)
    assert ann.get("/api/users").status_code == 200
    assert ann.get("/dashboard/manage-users").status_code == 200
    lookups = checks(provider)

    User.objects.filter(email="ann@example.com").update(role=User.Role.USER)

    assert ann.get("/api/users").status_code == 403
    assert ann.get("/dashboard/manage-users").url == "/forbidden"
    User.objects.filter(email="ann@example.com").update(role=User.Role.ADMIN)
    assert ann.get("/api/users").status_code == 200
    assert checks(provider) == lookups
