import re

import pytest
from django.urls import reverse

from accounts.models import User
from testing.islands import island_props

pytestmark = pytest.mark.django_db


def scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]*type="module"[^>]*src="([^"]+)"', html)


def test_home_shows_the_hero_with_its_two_calls_to_action(client):
    response = client.get("/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Manage Your Club Effortlessly" in html
    assert "Book courts, manage memberships, and stay updated with club announcements" in html
    assert re.search(r'<a href="/courts"[^>]*>View Courts</a>', html)
    assert re.search(r'<a href="/register"[^>]*>Join Now</a>', html)


def test_home_offers_no_join_now_to_someone_signed_in(sign_in_as):
    html = sign_in_as().get("/").content.decode()

    assert re.search(r'<a href="/courts"[^>]*>View Courts</a>', html)
    assert "Join Now" not in html


def test_home_loads_no_react_only_the_small_image_fallback(client):
    html = client.get("/").content.decode()

    assert [src.rsplit("/", 1)[-1].split("-")[0] for src in scripts(html)] == ["image"]
    assert "modulepreload" not in html


def test_support_loads_no_script(client):
    assert scripts(client.get(reverse("content:support")).content.decode()) == []


def test_support_shows_the_three_questions(client):
    html = client.get(reverse("content:support")).content.decode()

    assert "How do I book a court?" in html
    assert "View Courts" in html
    assert "How do I manage my membership?" in html
    assert "profile" in html
    assert "How do I report an issue?" in html
    assert "within 24 hours" in html


def test_forbidden_answers_403_with_the_spec_text_and_a_way_home(client):
    response = client.get(reverse("content:forbidden"))

    html = response.content.decode()
    assert response.status_code == 403
    assert "Access Denied" in html
    assert (
        "It seems you've stumbled upon a forbidden zone. You do not have the necessary "
        "permissions to view this page." in html
    )
    assert re.search(r'<a href="/"[^>]*>Go Back Home</a>', html)


@pytest.mark.parametrize("path", ["/no-such-page", "/courts/42/nothing", "/dashboard/unknown", "/blog"])
def test_an_unknown_route_answers_404_with_links_home_and_to_support(client, path):
    response = client.get(path)

    html = response.content.decode()
    assert response.status_code == 404
    assert "Page Not Found" in html
    assert re.search(r'<a href="/"[^>]*>Go Back Home</a>', html)
    assert re.search(r'<a href="/support"[^>]*>Contact Support</a>', html)


def test_the_announcements_come_in_pages_newest_first(sign_in_as):
    from content.models import Announcement

    reader = sign_in_as("ada@example.com")
    for number in range(1, 31):
        Announcement.objects.create(text=f"Notice {number}")

    first = reader.get("/dashboard/announcements").content.decode()
    second = reader.get("/dashboard/announcements", {"page": 2}).content.decode()

    assert first.count("Notice ") == 25
    assert "Notice 30" in first
    assert "Notice 5<" not in first
    assert re.findall(r"<td[^>]*>(\d+)</td>\s*<td[^>]*>Notice 5<", second) == ["26"]
    assert second.count("Notice ") == 5


def test_make_announcements_carries_the_first_page_newest_first_and_the_total(sign_in_as):
    from content.models import Announcement

    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    for number in range(1, 31):
        Announcement.objects.create(text=f"Notice {number}")

    props = island_props(admin.get("/dashboard/make-announcements").content.decode())

    page = props["firstPage"]
    assert [row["text"] for row in page["rows"]] == [f"Notice {number}" for number in range(30, 5, -1)]
    assert (page["total"], page["pageSize"], page["url"]) == (30, 25, "/api/announcements")
    assert props["createUrl"] == "/api/announcements"
