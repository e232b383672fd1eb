"""Courts in Django admin are saved through the courts' services, with their price bands: the same
rules and audit entries as on Manage Courts."""

import pytest

from audit.models import AuditEntry
from bookings.tests.factories import make_booking
from courts.models import Court
from courts.tests.factories import NO_BANDS, CourtFactory, admin_form

pytestmark = pytest.mark.django_db

EVENINGS = {
    **NO_BANDS,
    "price_bands-TOTAL_FORMS": "1",
    "price_bands-0-weekdays": ["0", "1", "2", "3", "4"],
    "price_bands-0-starts": "18:00",
    "price_bands-0-ends": "22:00",
    "price_bands-0-price": "30.00",
}


def trail() -> list[tuple]:
    return list(AuditEntry.objects.order_by("id").values_list("action", "before", "after"))


def test_a_court_added_with_a_band_in_django_admin_is_made_and_audited_by_the_service(people):
    form = {
        "name": "Centre",
        "type": "Tennis",
        "price": "20.00",
        "image": "/static/img/courts/tennis.svg",
        "slots": '["18:00-19:00"]',
        "places": "2",
        **EVENINGS,
    }

    response = people["admin"].post("/admin/courts/court/add/", form, follow=True)

    assert "was added successfully" in response.content.decode()
    court = Court.objects.get()
    assert court.places == 2
    assert [str(band) for band in court.price_bands.all()] == ["weekdays 18:00-22:00: 30.00"]
    [(action, before, after)] = trail()
    assert (action, before, after["name"], after["price"]) == ("court.create", None, "Centre", "20.00")
    assert AuditEntry.objects.get().actor_email == "ann@example.com"


def test_a_courts_price_changed_in_django_admin_is_one_entry_with_its_values(people):
    court = CourtFactory(price="20.00")

    response = people["admin"].post(
        f"/admin/courts/court/{court.pk}/change/", admin_form(court, price="25.00"), follow=True
    )

    assert "was changed successfully" in response.content.decode()
    [(action, before, after)] = trail()
    assert (action, before["price"], after["price"]) == ("court.update", "20.00", "25.00")
    assert AuditEntry.objects.get().summary == f"Changed {court}"


def test_a_band_added_in_django_admin_is_named_in_the_courts_entry(people):
    court = CourtFactory()

    people["admin"].post(f"/admin/courts/court/{court.pk}/change/", admin_form(court, **EVENINGS))

    assert [str(band) for band in court.price_bands.all()] == ["weekdays 18:00-22:00: 30.00"]
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.summary) == (
        "court.update",
        f"Changed {court} (price bands: weekdays 18:00-22:00: 30.00)",
    )


def test_overlapping_bands_are_refused_on_the_form(people):
    court = CourtFactory()
    form = admin_form(
        court,
        **{
            **EVENINGS,
            "price_bands-TOTAL_FORMS": "2",
            "price_bands-1-weekdays": ["0"],
            "price_bands-1-starts": "20:00",
            "price_bands-1-ends": "23:00",
            "price_bands-1-price": "35.00",
        },
    )

    response = people["admin"].post(f"/admin/courts/court/{court.pk}/change/", form)

    assert response.status_code == 200
    assert "overlap" in response.content.decode()
    assert not court.price_bands.exists()
    assert not AuditEntry.objects.exists()


def test_a_court_deleted_in_django_admin_is_deleted_by_the_service(people):
    court = CourtFactory(name="Centre")

    response = people["admin"].post(f"/admin/courts/court/{court.pk}/delete/", {"post": "yes"}, follow=True)

    assert "was deleted successfully" in response.content.decode()
    assert not Court.objects.exists()
    [(action, before, after)] = trail()
    assert (action, before["name"], after) == ("court.delete", "Centre", None)


def test_a_court_with_bookings_is_not_deleted_in_django_admin(people):
    court = make_booking().court

    response = people["admin"].post(f"/admin/courts/court/{court.pk}/delete/", {"post": "yes"})

    assert "<title>Cannot delete court |" in response.content.decode()
    assert Court.objects.get() == court
    assert not AuditEntry.objects.exclude(action__startswith="booking.").exists()


def test_an_archived_court_is_opened_again_by_unticking_it(people):
    court = CourtFactory(is_archived=True)

    people["admin"].post(f"/admin/courts/court/{court.pk}/change/", {**admin_form(court), "is_archived": ""})

    court.refresh_from_db()
    assert not court.is_archived
    [(action, before, after)] = trail()
    assert (action, before["is_archived"], after["is_archived"]) == ("court.update", True, False)
