import base64
import json
import time

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

COOKIE = settings.IDENTITY_COOKIE_NAME


def post_session(client: Client, id_token: str, **fields):
    return client.post("/api/session", {"idToken": id_token, **fields}, content_type="application/json")


def unsigned_token(claims: dict) -> str:
    """A token shaped like the emulator's (alg none), with whatever claims a forger likes."""

    def part(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


def test_signing_in_sets_an_http_only_session_cookie_and_records_the_user(client, emulator):
    account = emulator.sign_up("ada@example.com", name="Ada Lovelace")

    response = post_session(client, account["idToken"])

    assert response.status_code == 200
    assert response.json()["email"] == "ada@example.com"
    assert response.json()["role"] == "user"
    cookie = response.cookies[COOKIE]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == settings.IDENTITY_SESSION_DAYS * 86400
    assert "csrftoken" in response.cookies
    user = User.objects.get(email="ada@example.com")
    assert (user.name, user.firebase_uid, user.role) == ("Ada Lovelace", account["localId"], "user")
    assert user.last_login is not None


def test_a_display_name_from_the_provider_is_kept_on_one_line(client, emulator):
    """The provider's name goes into e-mail headers and CSV cells like any name the site takes."""
    account = emulator.sign_up("ada@example.com", name="Ada\r\nBcc: eve@example.com")

    assert post_session(client, account["idToken"]).status_code == 200

    assert User.objects.get(email="ada@example.com").name == "Ada Bcc: eve@example.com"


def test_the_session_cookie_signs_the_user_in_on_the_next_requests(client, emulator):
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])

    response = client.get("/api/users/ada@example.com/role")

    assert response.status_code == 200
    assert response.json() == {"role": "user"}


def test_signing_in_again_updates_last_login_and_keeps_created_at_and_role(client, emulator):
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])
    User.objects.filter(email="ada@example.com").update(role="member")
    first = User.objects.get()

    post_session(client, emulator.sign_in("ada@example.com")["idToken"])

    again = User.objects.get()
    assert again.created_at == first.created_at
    assert again.last_login > first.last_login
    assert again.role == "member"


def test_a_record_made_before_the_first_sign_in_is_linked_by_its_verified_email(client, emulator):
    User.objects.create_user("ada@example.com", role="admin")

    post_session(client, emulator.sign_up("Ada@Example.com", verified=True)["idToken"])

    user = User.objects.get()
    assert user.role == "admin"
    assert user.firebase_uid


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "idToken"), ({"idToken": ""}, "idToken"), ({"idToken": 5}, None)],
)
def test_a_missing_token_answers_400_with_the_field(client, emulator, body, field):
    response = client.post("/api/session", body, content_type="application/json")

    assert response.status_code in (400, 401)
    if field:
        assert response.status_code == 400
        assert field in response.json()


@pytest.mark.parametrize(
    "token",
    [
        "not-a-token",
        unsigned_token(
            {"sub": "nobody", "aud": "demo-club", "iss": "https://securetoken.google.com/demo-club"}
        ),
        unsigned_token(
            {"sub": "x", "aud": "another-project", "iss": "https://securetoken.google.com/another-project"}
        ),
    ],
)
def test_a_forged_or_malformed_token_is_refused(client, emulator, token):
    response = post_session(client, token)

    assert response.status_code == 401
    assert response.json()["detail"] == "The sign-in could not be verified. Please sign in again."
    assert COOKIE not in response.cookies
    assert User.objects.count() == 0


def test_a_credential_of_deeply_nested_json_is_refused_not_a_server_error(emulator):
    nested = base64.urlsafe_b64encode(b"[" * 1500 + b"]" * 1500).rstrip(b"=").decode()
    credential = f"{nested}.{nested}."
    page_visitor = Client()
    page_visitor.cookies[COOKIE] = credential

    assert post_session(Client(), credential).status_code == 401
    assert role_with_bearer(credential).status_code == 401
    assert page_visitor.get("/api/users/ada@example.com/role").status_code == 401
    assert page_visitor.get("/").status_code == 200


def role_with_bearer(id_token: str):
    return Client().get("/api/users/ada@example.com/role", headers={"Authorization": f"Bearer {id_token}"})


def test_a_token_issued_before_the_accounts_sessions_were_revoked_is_refused(client, emulator):
    account = emulator.sign_up("ada@example.com")
    emulator.next_second()  # revocation has one-second granularity
    emulator.revoke_sessions(account["localId"])

    response = post_session(client, account["idToken"])

    assert response.status_code == 401
    assert User.objects.count() == 0


def test_the_session_endpoint_requires_the_csrf_token(emulator):
    strict = Client(enforce_csrf_checks=True)

    response = post_session(strict, emulator.sign_up("ada@example.com")["idToken"])

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_revoked_session_cookie_is_refused_once_its_check_is_due(client, emulator, settings):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 1
    account = emulator.sign_up("ada@example.com")
    post_session(client, account["idToken"])
    assert client.get("/api/users/ada@example.com/role").status_code == 200
    time.sleep(1.1)  # revocation has one-second granularity; the check is due again by then
    emulator.revoke_sessions(account["localId"])

    response = client.get("/api/users/ada@example.com/role")

    assert response.status_code == 401
    assert response.cookies[COOKIE].value == ""  # the dead cookie is dropped


def test_a_disabled_account_is_signed_out(client, emulator, settings):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 0  # every request asks the provider
    account = emulator.sign_up("ada@example.com")
    post_session(client, account["idToken"])
    emulator.disable(account["localId"])

    assert client.get("/api/users/ada@example.com/role").status_code == 401


def test_an_expired_session_cookie_is_refused(client, emulator, monkeypatch):
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])
    assert client.get("/api/users/ada@example.com/role").status_code == 200
    # The cookie lives for days; rather than wait, the server is asked a minute after it ends.
    later = time.time() + settings.IDENTITY_SESSION_DAYS * 86400 + 60
    monkeypatch.setattr("accounts.identity.time.time", lambda: later)

    response = client.get("/api/users/ada@example.com/role")

    assert response.status_code == 401
    assert response.cookies[COOKIE].value == ""


def test_signing_out_clears_the_cookie(client, emulator):
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])

    response = client.delete("/api/session")

    assert response.status_code == 204
    assert response.cookies[COOKIE].value == ""
    assert client.get("/api/users/ada@example.com/role").status_code == 401


@pytest.mark.parametrize("sign_out", ["api", "form"])
def test_a_signed_out_session_cookie_is_refused_if_it_comes_back(client, emulator, sign_out):
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])
    copy = client.cookies[COOKIE].value

    if sign_out == "api":
        assert client.delete("/api/session").status_code == 204
    else:
        assert client.post("/logout").status_code == 302
    replay = Client()
    replay.cookies[COOKIE] = copy

    assert replay.get("/api/users/ada@example.com/role").status_code == 401
    assert replay.get("/dashboard").url.startswith("/login")


def test_signing_out_elsewhere_leaves_this_session_signed_in(emulator):
    laptop, phone = Client(), Client()
    post_session(laptop, emulator.sign_up("ada@example.com")["idToken"])
    emulator.next_second()  # cookies carry their time in seconds: made in the same second, they are the same
    post_session(phone, emulator.sign_in("ada@example.com")["idToken"])

    phone.delete("/api/session")

    assert laptop.get("/api/users/ada@example.com/role").status_code == 200


def test_an_account_without_an_email_is_not_signed_in(client, emulator):
    anonymous = emulator._call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/accounts:signUp?key={emulator.API_KEY}",
        {"returnSecureToken": True},
    )

    response = post_session(client, anonymous["idToken"])

    assert response.status_code == 401
    assert User.objects.count() == 0


def test_the_bearer_header_authenticates_an_api_call(emulator):
    account = emulator.sign_up("ada@example.com")

    response = Client().get(
        "/api/users/ada@example.com/role", headers={"Authorization": f"Bearer {account['idToken']}"}
    )

    assert response.status_code == 200
    assert response.json() == {"role": "user"}


@pytest.mark.parametrize("header", ["Bearer", "Bearer not-a-token", "Bearer a b"])
def test_a_bad_bearer_header_answers_401(emulator, header):
    response = Client().get("/api/users/ada@example.com/role", headers={"Authorization": header})

    assert response.status_code == 401
    assert response.json()["detail"]


def test_without_credentials_the_api_answers_401_with_a_json_body():
    response = Client().get("/api/users/ada@example.com/role")

    assert response.status_code == 401
    assert response.json() == {"detail": "Authentication credentials were not provided."}


def test_signing_in_while_the_identity_provider_is_down_answers_503_with_a_message(client, emulator, request):
    id_token = emulator.sign_up("ada@example.com")["idToken"]
    request.getfixturevalue("identity_provider_down")

    response = post_session(client, id_token)

    assert response.status_code == 503
    assert response.json() == {"detail": "Sign-in cannot be checked right now. Please try again in a minute."}
    assert COOKIE not in response.cookies
    assert User.objects.count() == 0


def test_while_the_identity_provider_is_down_a_read_stands_on_the_cookie_and_a_payment_answers_503(
    client, emulator, request, settings
):
    settings.IDENTITY_REVOCATION_CHECK_SECONDS = 0  # the sign-in's check is not kept: ask again
    post_session(client, emulator.sign_up("ada@example.com")["idToken"])
    request.getfixturevalue("identity_provider_down")

    read = client.get("/api/users/ada@example.com/role")
    payment = client.post("/api/create-payment-intent", {"bookingId": 1}, content_type="application/json")

    assert read.status_code == 200
    assert payment.status_code == 503
    assert payment.json()["detail"] == "Sign-in cannot be checked right now. Please try again in a minute."


def test_a_greeting_is_shown_on_the_next_page(client, emulator):
    response = post_session(client, emulator.sign_up("ada@example.com")["idToken"], greeting="register")

    assert response.status_code == 200
    assert "Registration successful!" in client.get("/").content.decode()


def test_an_unknown_greeting_answers_400(client, emulator):
    response = post_session(client, emulator.sign_up("ada@example.com")["idToken"], greeting="hello")

    assert response.status_code == 400
    assert "greeting" in response.json()


def test_signing_in_again_in_the_second_one_signed_out_signs_in(client, emulator):
    """Session cookies carry their time in seconds: a sign-in in the same second as one signed out
    of makes the very same cookie, which the new sign-in makes good again."""
    token = emulator.sign_up("ada@example.com")["idToken"]
    post_session(client, token)
    assert client.delete("/api/session").status_code == 204

    assert post_session(client, token).status_code == 200

    assert client.get("/api/users/ada@example.com/role").status_code == 200
    assert client.get("/dashboard").status_code == 200
