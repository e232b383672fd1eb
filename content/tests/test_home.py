import re

import pytest

from content import data
from content.models import NewsletterSubscription
from payments.models import Coupon

pytestmark = pytest.mark.django_db


def test_the_home_page_has_its_eight_sections_in_order(client):
    html = client.get("/").content.decode()

    headings = [
        "Manage Your Club Effortlessly",
        "Discover the Heart of Our Club",
        "Our Location",
        "Exclusive Promotions, Save more with our latest discount coupons",
        "What Our Members Say",
        "Latest Blogs",
        "Stay Updated with Club News",
        "Our Trusted Partners",
    ]
    found = re.findall(r"<h[12][^>]*>([^<]+)</h[12]>", html)
    assert [h for h in found if h in headings] == headings
    assert "10+ Years of Empowering the Community Through Sports" in html
    assert "We respect your privacy. Unsubscribe anytime." in html
    assert "We collaborate with top brands to provide the best club experience." in html


def test_the_hero_carousel_shows_five_shipped_sports_images(client):
    html = client.get("/").content.decode()

    carousel = re.search(r'data-testid="hero-carousel">(.*?)</ul>', html, re.S).group(1)
    images = re.findall(r'<img src="/static/img/hero/([a-z]+)-?\d?\.[0-9a-f]{12}\.svg"', carousel)
    assert images == ["badminton", "badminton", "basketball", "tennis", "tennis"]


def test_location_testimonials_blogs_and_partners(client, settings):
    html = client.get("/").content.decode()

    assert settings.CLUB_CONTACT["address"] in html
    assert "img/map." in html
    for testimonial in data.TESTIMONIALS:
        assert testimonial.name in html
    assert html.count(">Member<") == 3
    assert html.count(">Coach<") == 1
    for post in data.BLOG_POSTS:
        assert f'href="/blog/{post.id}"' in html
    strip = re.search(r'data-testid="partner-strip">(.*?)</section>', html, re.S).group(1)
    assert len(re.findall(r'<img src="/static/img/partners/', strip)) == 26  # 13, and the seamless copy
    assert len(re.findall(r'alt="[A-Z][^"]+"', strip)) == 13


@pytest.mark.parametrize(("count", "shown"), [(0, 0), (3, 3), (6, 4)])
def test_the_home_page_shows_at_most_four_active_coupons(client, count, shown):
    for n in range(count):
        Coupon.objects.create(code=f"CODE{n}", discount=10 + n, description=f"Deal {n}")
    Coupon.objects.create(code="HIDDEN", discount=50, is_active=False)

    html = client.get("/").content.decode()

    assert len(re.findall(r"Coupon Code: <span[^>]*>CODE\d</span>", html)) == shown
    assert "HIDDEN" not in html
    assert ("No active promotions available." in html) == (count == 0)
    if shown:
        assert "10% OFF" in html
        assert "Deal 0" in html


def test_a_coupon_load_failure_says_so_and_the_rest_of_the_page_shows(client, monkeypatch):
    from django.db import DatabaseError

    def broken():
        raise DatabaseError("down")

    monkeypatch.setattr("content.views.active_coupons", broken)  # the database failing for this query

    response = client.get("/")

    assert response.status_code == 200
    assert "Failed to load coupons." in response.content.decode()
    assert "Our Trusted Partners" in response.content.decode()


def test_a_blog_post_has_its_own_page(client):
    post = data.BLOG_POSTS[0]

    response = client.get(f"/blog/{post.id}")

    html = response.content.decode()
    assert response.status_code == 200
    assert f">{post.title}</h1>" in html
    for paragraph in post.body:
        assert paragraph in html


def test_an_unknown_blog_post_is_a_404(client):
    assert client.get("/blog/999").status_code == 404


def test_subscribing_stores_the_email_once_and_thanks_the_visitor(client):
    first = client.post("/newsletter", {"email": " Ada@Example.com "}, follow=True)
    again = client.post("/newsletter", {"email": "ada@example.com"}, follow=True)

    assert list(NewsletterSubscription.objects.values_list("email", flat=True)) == ["ada@example.com"]
    assert "Thank you for subscribing!" in first.content.decode()
    assert "You are already subscribed. Thank you!" in again.content.decode()
    assert first.redirect_chain == [("/#newsletter", 302)]


@pytest.mark.parametrize("email", ["", "not-an-email"])
def test_subscribing_with_a_bad_email_says_so_and_stores_nothing(client, email):
    response = client.post("/newsletter", {"email": email}, follow=True)

    assert "Please enter a valid e-mail address to subscribe." in response.content.decode()
    assert NewsletterSubscription.objects.count() == 0


@pytest.mark.parametrize("path", ["/", "/courts", "/support", "/blog/1", "/login", "/forbidden", "/nowhere"])
def test_no_template_comment_leaks_into_a_page(client, path):
    html = client.get(path).content.decode()

    assert "{#" not in html
    assert "{%" not in html
