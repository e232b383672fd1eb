"""Announcements in Django admin are saved through their services (the same rules and audit
entries as Make Announcements); contact messages and newsletter addresses are fixed by hand, each
fix one audit entry with its values."""

import pytest

from audit.models import AuditEntry
from content.models import Announcement, ContactMessage, NewsletterSubscription

pytestmark = pytest.mark.django_db


def trail() -> list[tuple]:
    return list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "before", "after"))


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
    assert before == {
        "name": "Spam",
        "email": "spam@example.com",
        "message": "Buy now",
        "handled_at": None,
        "handled_by": None,
    }


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
