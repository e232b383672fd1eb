"""Local mode: the verification links the emulator keeps instead of sending e-mail, on a page."""

import urllib.request

import pytest
from firebase_admin import auth

from accounts.identity import _app
from accounts.tests.test_session import post_session
from club.tests.test_settings import served_in_production

pytestmark = pytest.mark.django_db


def send_verification_link(emulator, id_token: str) -> None:
    """What the register island's `sendEmailVerification` asks of the provider."""
    emulator._call(
        "POST",
        f"/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key={emulator.API_KEY}",
        {"requestType": "VERIFY_EMAIL", "idToken": id_token},
    )


def test_the_local_page_lists_the_verification_link_and_opening_it_verifies_the_email(client, emulator):
    account = emulator.sign_up("zoe@example.com", verified=False)
    send_verification_link(emulator, account["idToken"])

    page = client.get("/local/auth-links")

    assert page.status_code == 200
    # The emulator keeps the links of earlier tests' accounts too.
    links = [link for link in page.context["links"] if link["email"] == "zoe@example.com"]
    assert [link["kind"] for link in links] == ["Verify e-mail"]
    assert "Open the link to verify e-mail" in page.content.decode()
    with urllib.request.urlopen(links[0]["url"], timeout=10):  # noqa: S310 - the local emulator
        pass
    assert auth.get_user(account["localId"], app=_app()).email_verified


def test_an_unverified_sign_in_is_reminded_to_verify(client, emulator):
    post_session(client, emulator.sign_up("zoe@example.com", verified=False)["idToken"], greeting="register")

    html = client.get("/").content.decode()

    assert "Registration successful!" in html
    assert "Please verify your e-mail address: open the link we sent to zoe@example.com." in html


@pytest.mark.integration  # starts the site's own processes
def test_production_never_routes_the_local_links_page():
    assert served_in_production("/local/auth-links") == []
