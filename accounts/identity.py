"""The identity provider, Firebase Authentication, behind a few functions.

firebase-admin verifies a token or session cookie here (signature, except the emulator's; expiry;
audience) with Google's public keys, which it caches. Whether it was revoked since, or its account
disabled or deleted, only Firebase knows; the rule for asking is here alone (docs/operations.md,
Identity checks): an ordinary request asks at most once per person per
IDENTITY_REVOCATION_CHECK_SECONDS, the answer shared by every process through the cache; the
sensitive operations (sign-in, payments, admin writes; accounts.permissions) ask every time. While
the provider does not answer (the breaker below), an ordinary request stands on its locally
verified credential and a sensitive one is refused with IdentityProviderUnavailable.
"""

import logging
import math
import os
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

import firebase_admin
import requests
from django.conf import settings
from django.core import signing
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from firebase_admin import auth, credentials, exceptions
from google.auth.exceptions import GoogleAuthError
from google.auth.transport.requests import AuthorizedSession

from kernel.text import one_line

from .models import validate_photo_url

logger = logging.getLogger(__name__)
SESSION_LIFETIME = timedelta(days=settings.IDENTITY_SESSION_DAYS)


class InvalidCredential(Exception):
    """A credential forged, tampered with, expired, revoked, of a disabled account, or of an account
    without a well-formed e-mail address."""


class EmailNotAccepted(InvalidCredential):
    """A verified sign-in whose e-mail address is not one the club accepts; its message says why."""


class IdentityProviderUnavailable(Exception):
    """Firebase (or its emulator) did not answer: nothing can be verified right now."""


class _Refused(IdentityProviderUnavailable):
    """The provider's refusal of a call (HTTP 400), its message a code such as USER_NOT_FOUND. The
    functions here turn the refusals they expect into what they mean (InvalidCredential, nothing to
    revoke); one they do not expect reaches the caller as IdentityProviderUnavailable, which every
    caller already answers with a 503 and its message, so it never opens the breaker."""


@dataclass(frozen=True)
class Identity:
    uid: str
    email: str  # well-formed as the provider gave it, in lower case
    email_verified: bool  # the owner of the address opened the provider's link (Google's always)
    name: str
    picture: str  # an https URL, or empty
    # When the credential was made (seconds since the epoch): a revocation voids older ones.
    issued_at: int = 0


@dataclass(frozen=True)
class IdentityForTests(Identity):
    """A sign-in the tests make without the provider (testing/identity.py): its credential is the
    identity signed with the site's key, and the provider is never asked about it. Accepted only
    where settings.ACCEPT_TEST_IDENTITIES is on, which the tests' own process alone turns on
    (conftest.py; no environment variable sets it), so that the tests of everything but identity
    itself need no provider."""

    SALT = "accounts.identity.IdentityForTests"

    @classmethod
    def from_credential(cls, credential: str) -> "IdentityForTests | None":
        if not settings.ACCEPT_TEST_IDENTITIES:
            return None
        try:
            return cls(**signing.loads(credential, salt=cls.SALT))
        except signing.BadSignature:
            return None


def _passes(validator: Callable[[str], None], value: str) -> bool:
    try:
        validator(value)
    except ValidationError:
        return False
    return True


@cache
def _app() -> firebase_admin.App:
    cred = (
        credentials.Certificate(settings.FIREBASE_CREDENTIALS_FILE)
        if settings.FIREBASE_CREDENTIALS_FILE
        else None  # Application Default Credentials; the emulator needs none
    )
    # Always name the project: without it firebase-admin guesses from the credentials.
    options = {"projectId": settings.FIREBASE_PROJECT_ID, "httpTimeout": settings.IDENTITY_TIMEOUT}
    return firebase_admin.initialize_app(cred, options, name="club")


@cache
def _toolkit(app: firebase_admin.App) -> tuple[requests.Session, str]:
    """The session for our calls to the provider's Identity Toolkit API, and the project's address."""
    project = f"identitytoolkit.googleapis.com/v1/projects/{app.project_id}"
    if host := os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        session = requests.Session()
        session.headers["Authorization"] = "Bearer owner"  # the emulator's stand-in for credentials
        return session, f"http://{host}/{project}"
    return AuthorizedSession(app.credential.get_credential()), f"https://{project}"


def _post(path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A call to the Identity Toolkit API, made once (firebase-admin's own calls retry with back-off,
    holding a request for several IDENTITY_TIMEOUTs; the breaker stands in for retries). Raises
    _Refused for a refusal (400), one of _NO_ANSWER for anything else that is not an answer."""
    session, project = _toolkit(_app())
    response = session.post(project + path, json=body, timeout=settings.IDENTITY_TIMEOUT)
    if response.status_code == 400:
        raise _Refused(response.json().get("error", {}).get("message", ""))
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


# --- The breaker ------------------------------------------------------------------------------
# After a call that got no answer, none for IDENTITY_BREAKER_SECONDS, then one trial call. In the
# shared cache, so that every process stops and tries again together: when the provider may be
# tried again (a time.time()), and who is trying it.
_BREAKER_KEY = "identity:provider-not-answering"
_TRIAL_KEY = "identity:provider-trial"
_NO_ANSWER = (requests.RequestException, GoogleAuthError)


def _no_answer(error: Exception) -> "IdentityProviderUnavailable":
    """Opens the breaker: no call is made to the provider for IDENTITY_BREAKER_SECONDS."""
    logger.warning(
        "The identity provider did not answer (%s); tried again in %s s.",
        str(error).strip() or error.__class__.__name__,
        settings.IDENTITY_BREAKER_SECONDS,
    )
    cache = caches["default"]
    # Kept until a call is answered: however long the provider is away, a trial decides.
    cache.set(_BREAKER_KEY, time.time() + settings.IDENTITY_BREAKER_SECONDS, None)
    cache.delete(_TRIAL_KEY)
    return IdentityProviderUnavailable(str(error))


def _call(path: str, body: dict[str, Any]) -> dict[str, Any]:
    """_post, unless the breaker is open: IdentityProviderUnavailable until IDENTITY_BREAKER_SECONDS
    are over, then to all callers but the first (the trial, whose answer closes it)."""
    cache = caches["default"]
    retry_at = cache.get(_BREAKER_KEY)
    trial = retry_at is not None
    # The trial's mark outlives a caller that dies mid-call by little more than the call's timeout.
    if trial and (
        time.time() < retry_at or not cache.add(_TRIAL_KEY, True, math.ceil(settings.IDENTITY_TIMEOUT) + 1)
    ):
        raise IdentityProviderUnavailable("The identity provider did not answer a moment ago.")
    try:
        return _post(path, body)
    except _NO_ANSWER as error:
        trial = False  # not over: the breaker opens again
        raise _no_answer(error) from error
    finally:
        if trial:  # answered (an error may be an answer): the breaker closes
            cache.delete_many([_BREAKER_KEY, _TRIAL_KEY])
            logger.warning("The identity provider answers again.")


def _account(**by: str) -> dict[str, Any]:
    """The provider's record of the account with this `localId` or `email`, {} if there is none."""
    users: list[dict[str, Any]] | None = _call(
        "/accounts:lookup", {field: [value] for field, value in by.items()}
    ).get("users")
    return users[0] if users else {}


# --- Revocation -------------------------------------------------------------------------------
def check_revocation(identity: "Identity", *, now: bool = True) -> None:
    """Refuses (InvalidCredential) a credential revoked, or of an account disabled or deleted, by
    the provider's word asked `now` (IdentityProviderUnavailable if it cannot say), else cached."""
    if isinstance(identity, IdentityForTests):
        return  # the provider has no account to ask about
    cache = caches["default"]
    key = f"identity:standing:{identity.uid}"
    standing = None if now else cache.get(key)
    if standing is None:
        try:
            account = _account(localId=identity.uid)
        except _Refused as error:
            raise InvalidCredential(str(error)) from error
        except IdentityProviderUnavailable:
            if now:
                raise
            return  # this request stands on the verified credential; the next one asks again
        # Before when its credentials are void (milliseconds since the epoch), and why it is
        # refused altogether, if it is.
        refused = "This account is disabled." if account.get("disabled") else ""
        standing = {
            "valid_after": 1000 * int(account.get("validSince") or 0),
            "refused": refused if account else "This account no longer exists.",
        }
        cache.set(key, standing, settings.IDENTITY_REVOCATION_CHECK_SECONDS)
    if standing["refused"]:
        raise InvalidCredential(standing["refused"])
    if identity.issued_at * 1000 < standing["valid_after"]:
        raise InvalidCredential("This sign-in has been revoked.")


def _identity(claims: dict[str, Any]) -> Identity:
    # firebase-admin checks expiry itself except for the emulator's tokens; checking it here too
    # makes a local session end exactly when a production one would.
    if claims.get("exp", 0) <= time.time():
        raise InvalidCredential("This sign-in has expired.")
    email = claims.get("email") or ""
    if not email:
        # Someone counts as signed in only with an e-mail address (docs/rules.md, Identity and sign-in).
        raise InvalidCredential("This account has no e-mail address.")
    # The emulator (and a careless provider) accepts " ada@example.com", which must never pass for
    # "ada@example.com".
    if (
        email != email.strip()
        or any(unicodedata.category(c)[0] == "C" for c in email)
        or not _passes(validate_email, email)
    ):
        raise EmailNotAccepted(
            "This account's e-mail address is not valid: it must be an address exactly, "
            "with no spaces or hidden characters around or inside it."
        )
    if '"' in email:
        # A quoted local part ("..."@example.com) is valid, and the only way markup (< >) gets into
        # an address: no real person's mail needs one, and every page would have to show it as text.
        raise EmailNotAccepted(
            "This account's e-mail address is not accepted: a quoted name before the @ is not, "
            "so please sign in with an address like name@example.com."
        )
    picture = claims.get("picture") or ""
    return Identity(
        uid=claims["uid"],
        email=email.lower(),
        email_verified=claims.get("email_verified") is True,
        name=one_line(claims.get("name") or ""),  # a provider may keep any characters in a name
        picture=picture if _passes(validate_photo_url, picture) else "",
        issued_at=int(claims.get("iat") or 0),
    )


def _verify(verify: Callable[..., dict[str, Any]], credential: str, *, now: bool) -> Identity:
    if for_tests := IdentityForTests.from_credential(credential):
        return for_tests
    try:
        # Signature, expiry and audience, here: no call to the provider once its keys are cached.
        identity = _identity(verify(credential, check_revoked=False, app=_app()))
    except (
        # Forged, tampered, malformed, expired, for ID tokens and session cookies alike.
        exceptions.InvalidArgumentError,
        ValueError,  # an empty value
        RecursionError,  # JSON nested too deeply, read before any signature is checked
    ) as error:
        raise InvalidCredential(str(error)) from error
    except auth.CertificateFetchError as error:  # Google's public keys could not be fetched
        raise _no_answer(error) from error
    except exceptions.FirebaseError as error:
        raise IdentityProviderUnavailable(str(error)) from error
    check_revocation(identity, now=now)
    return identity


def verify_id_token(id_token: str, *, now: bool = False) -> Identity:
    """An ID token's identity; `now`: its revocation checked with the provider on this call (a
    sign-in), not taken from the last check."""
    return _verify(auth.verify_id_token, id_token, now=now)


def verify_session_cookie(cookie: str, *, now: bool = False) -> Identity:
    return _verify(auth.verify_session_cookie, cookie, now=now)


def create_session_cookie(id_token: str) -> str:
    """A session cookie for a verified, recent sign-in (Firebase wants the ID token < 5 min old)."""
    body = {"idToken": id_token, "validDuration": int(SESSION_LIFETIME.total_seconds())}
    try:
        cookie: str = _call(":createSessionCookie", body)["sessionCookie"]
        return cookie
    except _Refused as error:
        raise InvalidCredential(str(error)) from error


def ensure_account(*, email: str, password: str, name: str) -> str:
    """The uid of the provider's account with this e-mail, made if new with this password and the
    address verified (the club vouches for it)."""
    if account := _account(email=email):
        uid: str = account["localId"]
        return uid
    account = {"email": email, "password": password, "displayName": name, "emailVerified": True}
    uid = _call("/accounts", account)["localId"]
    return uid


def revoke_sessions(uid: str) -> None:
    """Voids every credential of the account issued so far: Firebase refuses to refresh its ID
    tokens, and says so to whoever checks a session cookie's revocation."""
    try:
        _call("/accounts:update", {"localId": uid, "validSince": int(time.time())})
    except _Refused as error:
        if not str(error).startswith("USER_NOT_FOUND"):  # no account: nothing left to revoke
            raise


def has_password(uid: str) -> bool:
    """Whether the account can sign in with a password (not one made with Google alone)."""
    providers = _account(localId=uid).get("providerUserInfo", [])
    return any(provider["providerId"] == "password" for provider in providers)


def provider_status() -> dict[str, object]:
    """For /healthz: which provider, and whether it answers."""
    status = {"provider": "firebase-emulator" if settings.FIREBASE_AUTH_EMULATOR_HOST else "firebase"}
    try:
        # A lookup of an account that cannot exist: any answer means it is up. Not through the
        # breaker: this is the probe that says whether the provider is back.
        _post("/accounts:lookup", {"localId": ["healthz-probe"]})
    except (*_NO_ANSWER, IdentityProviderUnavailable, ValueError) as error:
        return {**status, "ok": False, "error": str(error).strip() or error.__class__.__name__}
    return {**status, "ok": True}
