"""The tests' own sign-in (testing/identity.py, `sign_in_as`): it passes through the same middleware,
authentication and permissions as a session the provider made, and only the tests' process accepts
it. (These run in the fast layer, where no identity provider is running.)"""

import time

import pytest
from django.conf import settings as site_settings
from django.core import signing
from django.test import Client

from accounts.identity import IdentityForTests
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_test_identity_passes_the_checks_that_ask_the_provider_of_a_real_session(sign_in_as):
    ann = sign_in_as("ann@example.com", User.Role.ADMIN)
    sign_in_as("ada@example.com")

    # An admin's write asks the provider whether a real session still stands; a test identity has
    # no account there to ask about.
    response = ann.patch("/api/users/ada@example.com/role", {"admin": True}, content_type="application/json")

    assert response.status_code == 200, response.content
    assert User.objects.get(email="ada@example.com").role == User.Role.ADMIN


def test_outside_the_tests_process_a_test_identity_is_refused(sign_in_as, settings):
    ada = sign_in_as("ada@example.com")
    settings.ACCEPT_TEST_IDENTITIES = False

    response = ada.get("/api/users/ada@example.com/role")

    assert response.status_code == 401
    assert response.cookies[site_settings.IDENTITY_COOKIE_NAME].value == ""  # dropped


def test_a_test_identity_signed_with_another_key_is_refused(sign_in_as):
    sign_in_as("ada@example.com")
    forged = Client()
    identity = {"uid": "test:ada@example.com", "email": "ada@example.com", "email_verified": True}
    forged.cookies[site_settings.IDENTITY_COOKIE_NAME] = signing.dumps(
        {**identity, "name": "", "picture": "", "issued_at": int(time.time())},
        key="not-the-site-s-key",
        salt=IdentityForTests.SALT,
    )

    assert forged.get("/api/users/ada@example.com/role").status_code == 401
