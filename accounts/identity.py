"""The identity provider, Firebase Authentication, behind a few functions (firebase-admin).

Everything here verifies: ID tokens and session cookies are checked for signature (except from the
local emulator, see settings), expiry, audience and revocation. The rest of the project sees
`Identity` values and two exceptions, never firebase-admin's types.
"""

import time
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

import firebase_admin
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email
from firebase_admin import auth, credentials, exceptions


class InvalidCredential(Exception):
    """A token or session cookie that is forged, tampered with, expired, revoked or of a disabled
    account, or an account without a well-formed e-mail address."""


class EmailNotAccepted(InvalidCredential):
    """A verified sign-in whose e-mail address is not one the club accepts; its message says why."""


class IdentityProviderUnavailable(Exception):
    """Firebase (or its emulator) did not answer: nothing can be verified right now."""


@dataclass(frozen=True)
class Identity:
    uid: str
    email: str  # well-formed as the provider gave it, in lower case
    email_verified: bool  # the owner of the address opened the provider's link (Google's always)
    name: str
    picture: str  # an https URL, or empty


def _well_formed_email(email: str) -> bool:
    """An address exactly as given, with nothing around or inside it that a real one lacks: the
    emulator (and a careless provider) accepts " ada@example.com", which must never pass for
    "ada@example.com"."""
    if email != email.strip() or any(unicodedata.category(char)[0] == "C" for char in email):
        return False
    try:
        validate_email(email)
    except ValidationError:
        return False
    return True


def _safe_picture(url: str) -> str:
    """The provider's photo, if it is an https URL; pages render it as an image source."""
    try:
        URLValidator(schemes=["https"])(url)
    except ValidationError:
        return ""
    return url


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
    email = claims.get("email") or ""
    if not email:
        # Someone counts as signed in only with an e-mail address (docs/rules.md, Identity and sign-in).
        raise InvalidCredential("This account has no e-mail address.")
    if not _well_formed_email(email):
        raise EmailNotAccepted(
            "This account's e-mail address is not valid: it must be an address exactly, "
            "with no spaces or hidden characters around or inside it."
        )
    return Identity(
        uid=claims["uid"],
        email=email.lower(),
        email_verified=claims.get("email_verified") is True,
        name=claims.get("name", ""),
        picture=_safe_picture(claims.get("picture") or ""),
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
        RecursionError,  # JSON nested too deeply, read before any signature is checked
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
    except (exceptions.InvalidArgumentError, ValueError, RecursionError) as error:
        raise InvalidCredential(str(error)) from error
    except exceptions.FirebaseError as error:
        raise IdentityProviderUnavailable(str(error)) from error


def ensure_account(*, email: str, password: str, name: str) -> str:
    """The uid of the provider's account with this e-mail, made with this password (and the address
    taken as verified: the club vouches for it) if new."""
    try:
        try:
            return auth.get_user_by_email(email, app=_app()).uid
        except auth.UserNotFoundError:
            return auth.create_user(
                email=email, email_verified=True, password=password, display_name=name, app=_app()
            ).uid
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
