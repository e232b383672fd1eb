import re

import pytest
from django.conf import settings
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(client):
    return client.get("/").content.decode()


def section(html: str, pattern: str) -> str:
    match = re.search(pattern, html, re.S)
    assert match, pattern
    return match.group(0)


def test_the_navbar_links_home_courts_matches_programs_schedule_and_support(home):
    nav = section(home, r'<nav class="navbar-center.*?</nav>')
    assert re.findall(r'href="([^"]+)"[^>]*>(\w+)</a>', nav) == [
        ("/", "Home"),
        ("/courts", "Courts"),
        ("/matches", "Matches"),
        ("/programs", "Programs"),
        ("/schedule", "Schedule"),
        ("/support", "Support"),
    ]


def test_the_small_screen_dropdown_holds_home_courts_matches_programs_schedule_and_support(home):
    dropdown = section(home, r'<details class="dropdown.*?</details>')
    assert re.findall(r">(\w+)</a>", dropdown) == [
        "Home",
        "Courts",
        "Matches",
        "Programs",
        "Schedule",
        "Support",
    ]


def test_the_navbar_links_membership_once_the_club_sells_a_plan(client):
    from memberships.tests.factories import make_plan

    make_plan(on_sale=True)
    html = client.get("/").content.decode()

    links = ["Home", "Courts", "Matches", "Programs", "Schedule", "Membership", "Support"]
    nav = section(html, r'<nav class="navbar-center.*?</nav>')
    assert re.findall(r">(\w+)</a>", nav) == links
    dropdown = section(html, r'<details class="dropdown.*?</details>')
    assert re.findall(r">(\w+)</a>", dropdown) == links


def test_a_signed_out_visitor_sees_sign_in_and_sign_up(home):
    account = section(home, r'<div class="navbar-end.*?</div>')
    assert re.search(r'href="/login"[^>]*>Sign In</a>', account)
    assert re.search(r'href="/register"[^>]*>Sign Up</a>', account)


def test_the_current_page_is_marked_in_the_navbar(client):
    html = client.get("/courts").content.decode()
    assert re.search(r'href="/courts"[^>]*aria-current="page"[^>]*>Courts</a>', html)


def test_the_footer_has_its_four_blocks_and_the_copyright_line(home, settings):
    footer = section(home, r"<footer.*?</footer>")
    for title in ["About Us", "Contact Us", "Quick Links", "Follow Us"]:
        assert f">{title}</h2>" in footer
    assert settings.CLUB_CONTACT["address"] in footer
    assert settings.CLUB_CONTACT["phone"] in footer
    assert f'href="mailto:{settings.CLUB_CONTACT["email"]}"' in footer
    quick_links = section(footer, r'<nav aria-labelledby="footer-links">.*?</nav>')
    assert re.findall(r'href="([^"]+)">(\w+)</a>', quick_links) == [
        ("/", "Home"),
        ("/courts", "Courts"),
        ("/dashboard", "Dashboard"),
        ("/support", "Support"),
    ]
    follow = section(footer, r'<nav aria-labelledby="footer-follow">.*?</nav>')
    assert len(re.findall(r'href="https://[^"]+" target="_blank" rel="noopener noreferrer"', follow)) == 3
    assert f"&copy; {timezone.localdate().year} {settings.SITE_NAME}. All rights reserved." in footer


def test_pages_carry_the_security_headers(client):
    response = client.get("/")

    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin-allow-popups"


def test_no_template_holds_a_comment_the_template_language_would_print():
    # `{# … #}` ends on its line: one that runs over several lines is printed on the page as text.
    unclosed = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in (settings.BASE_DIR / "templates").rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") != line.count("#}")
    ]

    assert unclosed == []
