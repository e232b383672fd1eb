"""The Firebase Auth Emulator as the tests use it: accounts made and signed in through its REST
interface (the one the Firebase JS SDK calls), and cleared between tests."""

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

from django.conf import settings
from firebase_admin import auth

from accounts.identity import _app
from scripts import local_stack
from testing import environment

API_KEY = "test-key"  # the emulator accepts any key


def _base() -> str:
    return f"http://{os.environ['FIREBASE_AUTH_EMULATOR_HOST']}"


def _call(method: str, path: str, body: dict | None = None, *, as_admin: bool = False) -> dict:
    headers = {"Content-Type": "application/json"}
    if as_admin:
        headers["Authorization"] = "Bearer owner"  # the emulator's stand-in for admin credentials
    request = urllib.request.Request(
        _base() + path,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers=headers,
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def is_running() -> bool:
    try:
        _call("GET", "/")
    except (urllib.error.URLError, OSError):
        return False
    return True


def running():
    """The emulator at FIREBASE_AUTH_EMULATOR_HOST while this lasts, started there if none answers."""
    return local_stack.running(
        is_running,
        lambda: local_stack.start_emulator(
            host=os.environ["FIREBASE_AUTH_EMULATOR_HOST"],
            project=settings.FIREBASE_PROJECT_ID,
            name=f"firebase-emulator-{environment.PROCESS}",
        ),
    )


def clear_accounts() -> None:
    _call("DELETE", f"/emulator/v1/projects/{settings.FIREBASE_PROJECT_ID}/accounts", as_admin=True)


def sign_up(email: str, password: str = "secret-pass-1", name: str = "", *, verified: bool = True) -> dict:
    """A new e-mail/password account; answers its `localId` (uid) and a fresh `idToken`.

    `verified`: whether its owner has opened the verification link, as people who have an account
    with the club have; a registration that has just happened is not (False)."""
    account = _call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/accounts:signUp?key={API_KEY}",
        {"email": email, "password": password, "returnSecureToken": True},
    )
    if name:
        _call(
            "POST",
            f"/identitytoolkit.googleapis.com/v1/accounts:update?key={API_KEY}",
            {"idToken": account["idToken"], "displayName": name, "returnSecureToken": True},
        )
    if verified:
        update(account["localId"], emailVerified=True)
    if name or verified:
        account = {**sign_in(email, password), "localId": account["localId"]}
    return account


def sign_in(email: str, password: str = "secret-pass-1") -> dict:
    return _call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key={API_KEY}",
        {"email": email, "password": password, "returnSecureToken": True},
    )


def update(uid: str, **fields) -> None:
    """Changes an account as the provider's admin would (`emailVerified`, `email`, `photoUrl`…)."""
    _call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/projects/{settings.FIREBASE_PROJECT_ID}/accounts:update",
        {"localId": uid, **fields},
        as_admin=True,
    )


def disable(uid: str) -> None:
    update(uid, disableUser=True)


def next_second() -> None:
    """Waits until the clock's whole second has changed. Firebase keeps a credential's issue time
    and a revocation's time to the second: a revocation made after this refuses every credential
    issued before it, and a credential issued after it is from a later second than anything before.
    (The same as sleeping 1.1 s, without waiting past the next second.)"""
    time.sleep(1 - time.time() % 1 + 0.01)


def revoke_sessions(uid: str) -> None:
    """Ends every session of an account, as "sign out everywhere" or a password change would."""
    auth.revoke_refresh_tokens(uid, app=_app())


def sign_in_with_google(email: str, name: str = "") -> dict:
    """A Google account (no password), signed in as the Google popup would: the emulator takes the
    Google ID token's claims as plain JSON."""
    claims = json.dumps({"sub": f"google-{email}", "email": email, "email_verified": True, "name": name})
    return _call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key={API_KEY}",
        {
            "requestUri": "http://localhost",
            "postBody": urllib.parse.urlencode({"id_token": claims, "providerId": "google.com"}),
            "returnSecureToken": True,
            "returnIdpCredential": True,
        },
    )


def is_verified(email: str) -> bool:
    """Whether the account of `email` has its address verified (its verification link opened)."""
    return auth.get_user_by_email(email, app=_app()).email_verified


def oob_links(email: str, request_type: str) -> list[str]:
    """The links the emulator keeps instead of e-mailing them (`PASSWORD_RESET`, `VERIFY_EMAIL`…),
    oldest first, as local/auth_links.py lists them."""
    codes = _call("GET", f"/emulator/v1/projects/{settings.FIREBASE_PROJECT_ID}/oobCodes")["oobCodes"]
    return [
        code["oobLink"] for code in codes if code["email"] == email and code["requestType"] == request_type
    ]
