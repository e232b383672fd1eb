"""The identity provider, Firebase Authentication, behind a few functions (firebase-admin).

Everything here verifies: ID tokens and session cookies are checked for signature (except from the
local emulator, see settings), expiry, audience and revocation. The rest of the project sees
`Identity` values and two exceptions, never firebase-admin's types.
"""

import time
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

import firebase_admin
from django.conf import settings
from firebase_admin import auth, credentials, exceptions


class InvalidCredential(Exception):
    """A token or session cookie that is forged, tampered with, expired, revoked or of a disabled
    account, or an account without an e-mail address."""


class IdentityProviderUnavailable(Exception):
    """Firebase (or its emulator) did not answer: nothing can be verified right now."""


@dataclass(frozen=True)
class Identity:
    uid: str
    email: str
    name: str
    picture: str


@cache
def _app() -> firebase_admin.App:
    cred = (
        credentials.Certificate(settings.FIREBASE_CREDENTIALS_FILE)
        if settings.FIREBASE_CREDENTIALS_FILE
        else None  # Application Default Credentials; the emulator needs none
    )
    # Always name the project: without it firebase-admin guesses from the credentials.
    options = {"projectId": settings.FIREBASE_PROJECT_ID, "httpTimeout": settings.PROVIDER_TIMEOUT}
    return firebase_admin.initialize_app(cred, options, name="club")


def _identity(claims: dict) -> Identity:
    # firebase-admin checks expiry itself except for the emulator's tokens; checking it here too
    # makes a local session end exactly when a production one would.
    if claims.get("exp", 0) <= time.time():
        raise InvalidCredential("This sign-in has expired.")
    email = (claims.get("email") or "").strip().lower()
    if not email:
        # The product counts someone as signed in only with an e-mail (spec §4).
        raise InvalidCredential("This account has no e-mail address.")
    return Identity(
        uid=claims["uid"], email=email, name=claims.get("name", ""), picture=claims.get("picture", "")
    )


def _verify(verify, credential: str) -> Identity:
    try:
        return _identity(verify(credential, check_revoked=True, app=_app()))
    except (
        # Forged, tampered, malformed, expired, revoked, of a disabled account, all for ID tokens
        # and session cookies alike; and an account that no longer exists.
        exceptions.InvalidArgumentError,
        auth.UserNotFoundError,
        ValueError,  # an empty value
    ) as error:
        raise InvalidCredential(str(error)) from error
    except (auth.CertificateFetchError, exceptions.FirebaseError) as error:
        raise IdentityProviderUnavailable(str(error)) from error


def verify_id_token(id_token: str) -> Identity:
    return _verify(auth.verify_id_token, id_token)


def verify_session_cookie(cookie: str) -> Identity:
    return _verify(auth.verify_session_cookie, cookie)


def session_cookie_lifetime() -> timedelta:
    return timedelta(days=settings.IDENTITY_SESSION_DAYS)


def create_session_cookie(id_token: str) -> str:
    """A session cookie for a verified, recent sign-in (Firebase wants the ID token < 5 min old)."""
    try:
        return auth.create_session_cookie(id_token, expires_in=session_cookie_lifetime(), app=_app())
    except (exceptions.InvalidArgumentError, ValueError) as error:
        raise InvalidCredential(str(error)) from error
    except exceptions.FirebaseError as error:
        raise IdentityProviderUnavailable(str(error)) from error


def ensure_account(*, email: str, password: str, name: str) -> str:
    """The uid of the provider's account with this e-mail, made with this password if new."""
    try:
        try:
            return auth.get_user_by_email(email, app=_app()).uid
        except auth.UserNotFoundError:
            return auth.create_user(email=email, password=password, display_name=name, app=_app()).uid
    except exceptions.FirebaseError as error:
        raise IdentityProviderUnavailable(str(error)) from error


def provider_status() -> dict:
    """For /healthz: which provider, and whether it answers."""
    status = {"provider": "firebase-emulator" if settings.FIREBASE_AUTH_EMULATOR_HOST else "firebase"}
    try:
        # A lookup of an account that cannot exist: any answer, even "not found", means it is up.
        auth.get_user("healthz-probe", app=_app())
    except auth.UserNotFoundError:
        pass
    except (exceptions.FirebaseError, ValueError) as error:
        return {**status, "ok": False, "error": str(error).strip() or error.__class__.__name__}
    return {**status, "ok": True}
