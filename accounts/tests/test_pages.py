import re

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "heading", "subtitle", "other_page"),
    [
        (
            "/login",
            "Log In",
            "Sign in to access your account",
            r"Don't have an account\? <a [^>]*href=\"/register\"[^>]*>Register</a>",
        ),
        (
            "/register",
            "Register Now",
            "Fill the form below to create your account",
            r"Already have an account\? <a [^>]*href=\"/login\"[^>]*>Sign In</a>",
        ),
    ],
)
def test_an_authentication_page_has_its_heading_and_a_link_to_the_other(
    client, path, heading, subtitle, other_page
):
    response = client.get(path)

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(rf"<h1[^>]*>{heading}</h1>", html)
    assert subtitle in html
    assert re.search(other_page, html)
    # The authentication layout: the illustration beside the form (on large screens).
    assert re.search(
        r'<figure class="hidden lg:flex[^"]*">\s*<img src="/static/img/auth-illustration\.', html
    )


def test_the_page_a_verification_link_ends_on_says_the_address_is_verified_and_offers_to_sign_in(client):
    response = client.get("/email-verified")

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"<h1[^>]*>E-mail address verified</h1>", html)
    assert "Your e-mail address is verified." in html
    assert re.search(r'<a [^>]*href="/login"[^>]*>Sign In</a>', html)


@pytest.mark.parametrize("role", ["user", "member", "admin"])
def test_signed_in_the_verified_page_leads_to_the_dashboard(sign_in_as, role):
    response = sign_in_as(role=role).get("/email-verified")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Your e-mail address is verified." in html
    assert re.search(r'<a [^>]*href="/dashboard"[^>]*>Go to your dashboard</a>', html)
