import re

import pytest

pytestmark = pytest.mark.django_db


def test_login_page_has_its_heading_in_the_authentication_layout(client):
    response = client.get("/login")

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"<h1[^>]*>Log In</h1>", html)
    assert "Sign in to access your account" in html
    assert re.search(r"Don't have an account\? <a [^>]*href=\"/register\"[^>]*>Register</a>", html)
    assert "img/auth-illustration" in html


def test_register_page_has_its_heading_in_the_authentication_layout(client):
    response = client.get("/register")

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"<h1[^>]*>Register Now</h1>", html)
    assert "Fill the form below to create your account" in html
    assert re.search(r"Already have an account\? <a [^>]*href=\"/login\"[^>]*>Sign In</a>", html)
    assert "img/auth-illustration" in html
