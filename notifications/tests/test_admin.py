"""Django admin shows the messages, what waits and why, to admins only, and changes none; people's
choices of optional messages are set there on their word, each change audited."""

import pytest

from accounts.models import User
from audit.models import AuditEntry
from bookings.tests.factories import make_booking
from notifications.models import Notification, Preferences
from notifications.services import preferences_get

pytestmark = pytest.mark.django_db


def test_admins_read_the_messages_and_may_not_change_them(people):
    make_booking()

    listing = people["admin"].get("/admin/notifications/notification/")

    assert listing.status_code == 200
    assert "booking_requested" in listing.content.decode()
    assert people["admin"].get("/admin/notifications/notification/add/").status_code == 403
    message = Notification.objects.first()
    deleted = people["admin"].post(f"/admin/notifications/notification/{message.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403
    assert Notification.objects.filter(pk=message.pk).exists()


@pytest.mark.parametrize("kind", ["anonymous", "owner", "member"])
def test_nobody_else_reads_them(people, kind):
    response = people[kind].get("/admin/notifications/notification/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"] or "/login" in response["Location"]


def test_an_admin_turns_off_someones_reminders_and_it_is_audited(people):
    ada = User.objects.get(email="ada@example.com")
    preferences_get(user=ada)

    response = people["admin"].post(
        f"/admin/notifications/preferences/{ada.pk}/change/", {"announcements": "on"}, follow=True
    )

    assert "was changed successfully" in response.content.decode()
    assert Preferences.objects.get(user=ada).reminders is False
    [entry] = AuditEntry.objects.all()
    assert (entry.actor_email, entry.action) == ("ann@example.com", "admin.change")
    assert (entry.target_type, entry.target_id) == ("preferences", str(ada.pk))
    assert (entry.before, entry.after) == ({"reminders": True}, {"reminders": False})


def test_preferences_are_set_for_someone_without_any_and_never_deleted(people):
    ada = User.objects.get(email="ada@example.com")

    people["admin"].post("/admin/notifications/preferences/add/", {"user": ada.pk, "reminders": "on"})
    deleted = people["admin"].post(f"/admin/notifications/preferences/{ada.pk}/delete/", {"post": "yes"})

    assert (Preferences.objects.get().reminders, Preferences.objects.get().announcements) == (True, False)
    assert deleted.status_code == 403
    [entry] = AuditEntry.objects.all()
    assert entry.action == "admin.add"
    assert entry.after == {"user": ada.pk, "reminders": True, "announcements": False}
