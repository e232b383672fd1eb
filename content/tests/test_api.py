from datetime import UTC, datetime

import pytest

from content.models import Announcement

pytestmark = pytest.mark.django_db

DENIED = {"anonymous": 401, "user": 403, "member": 403}


def test_signed_in_people_read_the_announcements_newest_first(caller):
    kind, client = caller
    Announcement.objects.create(text="Courts close early on Friday.")
    Announcement.objects.create(text="New floodlights!")

    response = client.get("/api/announcements")

    if kind == "anonymous":
        assert response.status_code == 401
    else:
        assert [a["text"] for a in response.json()] == ["New floodlights!", "Courts close early on Friday."]


def test_only_admins_post_change_and_delete_announcements(caller):
    kind, client = caller
    announcement = Announcement.objects.create(text="Old news")

    created = client.post(
        "/api/announcements", {"text": " Tournament on Sunday "}, content_type="application/json"
    )
    changed = client.patch(
        f"/api/announcements/{announcement.pk}", {"text": "Fresh"}, content_type="application/json"
    )
    deleted = client.delete(f"/api/announcements/{announcement.pk}")

    if kind in DENIED:
        assert {created.status_code, changed.status_code, deleted.status_code} == {DENIED[kind]}
        assert list(Announcement.objects.values_list("text", flat=True)) == ["Old news"]
    else:
        assert (created.status_code, changed.status_code, deleted.status_code) == (201, 200, 204)
        assert created.json()["text"] == "Tournament on Sunday"
        assert list(Announcement.objects.values_list("text", flat=True)) == ["Tournament on Sunday"]


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_announcement_is_refused(admin, text):
    announcement = Announcement.objects.create(text="Keep me")

    created = admin.post("/api/announcements", {"text": text}, content_type="application/json")
    changed = admin.patch(
        f"/api/announcements/{announcement.pk}", {"text": text}, content_type="application/json"
    )

    assert created.status_code == changed.status_code == 400
    assert created.json() == {"text": ["Please write the announcement."]}
    assert list(Announcement.objects.values_list("text", flat=True)) == ["Keep me"]


def test_an_announcement_is_sent_with_its_moment_written_as_the_club_writes_it(admin, settings):
    settings.TIME_ZONE = "America/New_York"
    Announcement.objects.create(text="Floodlights")
    Announcement.objects.update(created_at=datetime(2026, 3, 4, 2, 5, tzinfo=UTC))

    [announcement] = admin.get("/api/announcements").json()

    assert announcement["createdAtLabel"] == "March 3, 2026, 9:05 PM"
