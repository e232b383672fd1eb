"""Coupons and announcements in Django admin are saved through their services (the same rules and
audit entries as Manage Coupons and Make Announcements); contact messages and newsletter addresses
are fixed by hand, each fix one audit entry with its values."""

import pytest

from audit.models import AuditEntry
from content.admin import CouponAdmin
from content.models import Announcement, ContactMessage, Coupon, NewsletterSubscription
from content.services import coupon_create

pytestmark = pytest.mark.django_db

COUPON = {
    "code": "spring",
    "discount": "10",
    "description": "",
    "is_active": "on",
    "max_uses": "",
    "valid_from": "",
    "valid_until": "",
}


def trail() -> list[tuple]:
    return list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "before", "after"))


def test_a_coupon_added_in_django_admin_is_saved_and_audited_as_on_manage_coupons(people):
    response = people["admin"].post("/admin/content/coupon/add/", COUPON, follow=True)

    coupon = Coupon.objects.get()
    assert coupon.code == "SPRING"
    assert "was added successfully" in response.content.decode()
    [(who, action, before, after)] = trail()
    assert (who, action, before) == ("ann@example.com", "coupon.create", None)
    assert (after["code"], after["discount"]) == ("SPRING", 10)


def test_a_coupon_changed_in_django_admin_is_one_entry_with_its_values(people):
    coupon = coupon_create(code="SPRING", discount=10)

    response = people["admin"].post(
        f"/admin/content/coupon/{coupon.pk}/change/", {**COUPON, "discount": "20"}, follow=True
    )

    assert "was changed successfully" in response.content.decode()
    assert Coupon.objects.get().discount == 20
    [(who, action, before, after)] = trail()[1:]  # after the coupon's own creation (by the site)
    assert (who, action) == ("ann@example.com", "coupon.update")
    assert (before["discount"], after["discount"]) == (10, 20)


def test_a_code_taken_in_another_case_is_refused_on_the_form(people):
    coupon_create(code="SPRING", discount=10)

    response = people["admin"].post("/admin/content/coupon/add/", COUPON)

    assert response.status_code == 200
    assert "Coupon with this Code already exists." in response.content.decode()
    assert Coupon.objects.count() == 1
    assert [action for _, action, _, _ in trail()] == ["coupon.create"]


def test_a_code_saved_elsewhere_while_the_form_was_checked_is_said_on_the_page(people, monkeypatch):
    """Another admin saving the same code between this form's check and its save is staged by
    saving it just before the service saves this one (the test client sends one request at a
    time)."""
    saving = CouponAdmin.create

    def save_after_someone_else(admin, request, form, formsets):
        coupon_create(code="SPRING", discount=5)
        return saving(admin, request, form, formsets)

    monkeypatch.setattr(CouponAdmin, "create", save_after_someone_else)

    response = people["admin"].post("/admin/content/coupon/add/", COUPON, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [("/admin/content/coupon/add/", 302)]
    assert "There is already a coupon SPRING." in response.content.decode()
    assert not Coupon.objects.filter(discount=10).exists()
    assert trail() == []  # nothing of the refused save is left (nor, here, of the staged one)


def test_coupons_deleted_in_django_admin_are_audited_each(people):
    first, second = coupon_create(code="A", discount=10), coupon_create(code="B", discount=20)

    response = people["admin"].post(
        "/admin/content/coupon/",
        {"action": "delete_selected", "_selected_action": [first.pk, second.pk], "post": "yes"},
        follow=True,
    )

    assert "Successfully deleted 2 coupons." in response.content.decode()
    assert not Coupon.objects.exists()
    deleted = AuditEntry.objects.filter(action="coupon.delete").order_by("id")
    assert [entry.before["code"] for entry in deleted] == ["A", "B"]


def test_an_announcement_posted_changed_and_deleted_in_django_admin_goes_through_its_services(people):
    admin = people["admin"]

    admin.post("/admin/content/announcement/add/", {"text": " Courts close at 6 pm. "})
    announcement = Announcement.objects.get()
    admin.post(f"/admin/content/announcement/{announcement.pk}/change/", {"text": "Courts close at 7 pm."})
    admin.post(f"/admin/content/announcement/{announcement.pk}/delete/", {"post": "yes"})

    assert not Announcement.objects.exists()
    assert trail() == [
        ("ann@example.com", "announcement.create", None, {"text": "Courts close at 6 pm."}),
        (
            "ann@example.com",
            "announcement.update",
            {"text": "Courts close at 6 pm."},
            {"text": "Courts close at 7 pm."},
        ),
        ("ann@example.com", "announcement.delete", {"text": "Courts close at 7 pm."}, None),
    ]


def test_an_announcement_saved_unchanged_leaves_no_entry(people):
    people["admin"].post("/admin/content/announcement/add/", {"text": "Courts close at 6 pm."})
    announcement = Announcement.objects.get()

    people["admin"].post(
        f"/admin/content/announcement/{announcement.pk}/change/", {"text": "Courts close at 6 pm."}
    )

    assert [action for _, action, _, _ in trail()] == ["announcement.create"]


def test_a_contact_message_is_read_and_deleted_but_never_written_in_django_admin(people):
    message = ContactMessage.objects.create(name="Spam", email="spam@example.com", message="Buy now")

    page = people["admin"].get(f"/admin/content/contactmessage/{message.pk}/change/").content.decode()
    added = people["admin"].get("/admin/content/contactmessage/add/")
    response = people["admin"].post(
        f"/admin/content/contactmessage/{message.pk}/delete/", {"post": "yes"}, follow=True
    )

    assert "Buy now" in page
    assert 'name="message"' not in page
    assert added.status_code == 403
    assert "was deleted successfully" in response.content.decode()
    [(who, action, before, after)] = trail()
    assert (who, action, after) == ("ann@example.com", "admin.delete", None)
    assert before == {"name": "Spam", "email": "spam@example.com", "message": "Buy now"}


def test_newsletter_addresses_added_and_changed_by_hand_are_audited_with_their_values(people):
    people["admin"].post("/admin/content/newslettersubscription/add/", {"email": "ada@example.com"})
    subscription = NewsletterSubscription.objects.get()
    response = people["admin"].post(
        f"/admin/content/newslettersubscription/{subscription.pk}/change/",
        {"email": "ada@example.org"},
        follow=True,
    )

    assert "was changed successfully" in response.content.decode()
    assert trail() == [
        ("ann@example.com", "admin.add", None, {"email": "ada@example.com"}),
        ("ann@example.com", "admin.change", {"email": "ada@example.com"}, {"email": "ada@example.org"}),
    ]
    assert AuditEntry.objects.latest("id").summary == (
        "Django admin, newsletter subscription ada@example.org: Changed Email."
    )


def test_several_addresses_deleted_at_once_are_one_entry_each(people):
    subscriptions = [
        NewsletterSubscription.objects.create(email=f"{name}@example.com") for name in ("ada", "bob")
    ]

    people["admin"].post(
        "/admin/content/newslettersubscription/",
        {"action": "delete_selected", "_selected_action": [s.pk for s in subscriptions], "post": "yes"},
    )

    assert not NewsletterSubscription.objects.exists()
    assert sorted((action, before["email"]) for _, action, before, _ in trail()) == [
        ("admin.delete", "ada@example.com"),
        ("admin.delete", "bob@example.com"),
    ]
