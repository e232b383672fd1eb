"""Signing in without the identity provider, for the tests of everything but identity itself: a
test identity (accounts.identity.IdentityForTests) as the session cookie of a test client. The
person's record is made by the service a first sign-in calls; every request then passes through
the same middleware, authentication classes and permissions as a real session's."""

import time
from dataclasses import asdict

from django.conf import settings
from django.core import signing
from django.test import Client

from accounts.identity import IdentityForTests
from accounts.models import User
from accounts.services import user_sign_in


def credential(identity: IdentityForTests) -> str:
    return signing.dumps(asdict(identity), salt=IdentityForTests.SALT)


def session_cookie(email: str, *, name: str = "") -> str:
    """The session cookie of a test identity of `email`, the person's record made or found as at a
    first sign-in."""
    identity = IdentityForTests(
        uid=f"test:{email}",
        email=email,
        email_verified=True,
        name=name,
        picture="",
        issued_at=int(time.time()),
    )
    user_sign_in(identity=identity)
    return credential(identity)


def signed_in_client(email: str, *, name: str = "", role: str = User.Role.USER) -> Client:
    cookie = session_cookie(email, name=name)
    User.objects.filter(email=email).update(role=role)
    client = Client()
    client.cookies[settings.IDENTITY_COOKIE_NAME] = cookie
    return client
