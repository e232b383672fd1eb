"""What only production can show: signatures. The emulator's tokens are unsigned and accepted as
such, so these tests run the verifier as production does, with no emulator configured. They need
no network: an unsigned or re-signed token is refused before any certificate is fetched."""

import base64
import json
import time

import firebase_admin
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from accounts import identity


@pytest.fixture
def production_verifier(monkeypatch, settings, tmp_path):
    """The verifier with a service account (a key made up here) and no emulator."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    account = tmp_path / "service-account.json"
    account.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "demo-club",
                "private_key_id": "test",
                "private_key": pem.decode(),
                "client_email": "club@demo-club.iam.gserviceaccount.com",
                "token_uri": "https://oauth2.googleapis.com/token",
            }
        )
    )
    settings.FIREBASE_CREDENTIALS_FILE = str(account)
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()
    yield
    firebase_admin.delete_app(identity._app())
    identity._app.cache_clear()


def token(header: dict, claims: dict, signature: str = "") -> str:
    def part(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part(header)}.{part(claims)}.{signature}"


def claims(**extra) -> dict:
    now = int(time.time())
    return {
        "sub": "uid-1",
        "email": "admin@example.com",
        "aud": "demo-club",
        "iss": "https://securetoken.google.com/demo-club",
        "iat": now,
        "exp": now + 3600,
        "auth_time": now,
        **extra,
    }


@pytest.mark.parametrize(
    "forged",
    [
        token({"alg": "none", "typ": "JWT"}, claims()),  # an emulator-style unsigned token
        token({"alg": "HS256", "typ": "JWT", "kid": "x"}, claims(), "c2lnbmF0dXJl"),  # the wrong algorithm
        token({"alg": "RS256", "typ": "JWT"}, claims(), "c2lnbmF0dXJl"),  # no key id
    ],
)
def test_production_refuses_a_forged_id_token(production_verifier, forged):
    with pytest.raises(identity.InvalidCredential):
        identity.verify_id_token(forged)


def test_production_refuses_a_tampered_session_cookie(production_verifier):
    cookie = token(
        {"alg": "none", "typ": "JWT"},
        claims(iss="https://session.firebase.google.com/demo-club", role="admin"),
    )

    with pytest.raises(identity.InvalidCredential):
        identity.verify_session_cookie(cookie)
