"""The coupons' API: anyone reads the coupons on offer; admins add, change and delete them."""

from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from payments.models import Coupon

pytestmark = pytest.mark.django_db

DENIED = {"anonymous": 401, "user": 403, "member": 403}


def test_anyone_lists_the_active_coupons(caller):
    _, client = caller
    Coupon.objects.create(code="SUMMER10", discount=10, description="Summer")
    Coupon.objects.create(code="OLD", discount=5, is_active=False)

    response = client.get("/api/coupons")

    assert response.status_code == 200
    summer = Coupon.objects.get(code="SUMMER10")
    assert response.json() == [
        {
            "id": summer.pk,
            "code": "SUMMER10",
            "discount": 10,
            "description": "Summer",
            "isActive": True,
            "oncePerPerson": False,
            "maxUses": None,
            "validFrom": None,
            "validFromLabel": None,
            "validUntil": None,
            "validUntilLabel": None,
            "url": f"/api/coupons/{summer.pk}",
        }
    ]


def test_the_public_list_leaves_out_coupons_outside_their_dates(client):
    today = timezone.localdate()
    Coupon.objects.create(code="SOON", discount=10, valid_from=today + timedelta(days=1))
    Coupon.objects.create(code="OVER", discount=10, valid_until=today - timedelta(days=1))
    Coupon.objects.create(code="NOW", discount=10, valid_from=today, valid_until=today)

    assert [coupon["code"] for coupon in client.get("/api/coupons").json()] == ["NOW"]


def test_only_admins_add_change_and_delete_coupons(caller):
    kind, client = caller
    coupon = Coupon.objects.create(code="SUMMER10", discount=10)

    created = client.post(
        "/api/coupons", {"code": " spring20 ", "discount": 20}, content_type="application/json"
    )
    changed = client.patch(f"/api/coupons/{coupon.pk}", {"discount": 15}, content_type="application/json")
    deleted = client.delete(f"/api/coupons/{coupon.pk}")

    if kind in DENIED:
        assert {created.status_code, changed.status_code, deleted.status_code} == {DENIED[kind]}
        assert list(Coupon.objects.values_list("code", "discount")) == [("SUMMER10", 10)]
    else:
        assert (created.status_code, changed.status_code, deleted.status_code) == (201, 200, 204)
        assert created.json()["code"] == "SPRING20"
        assert changed.json()["discount"] == 15
        assert list(Coupon.objects.values_list("code", flat=True)) == ["SPRING20"]


def test_a_coupon_another_admin_deleted_meanwhile_is_said_to_be_gone_in_the_clubs_words(admin):
    gone = Coupon.objects.create(code="SPRING25", discount=25).pk
    Coupon.objects.filter(pk=gone).delete()  # by another admin, meanwhile

    changed = admin.patch(f"/api/coupons/{gone}", {"discount": 15}, content_type="application/json")
    deleted = admin.delete(f"/api/coupons/{gone}")

    for answer in (changed, deleted):
        assert answer.status_code == 404
        assert answer.json() == {
            "detail": "Not found: it may have been deleted meanwhile. Reload the page to see the latest."
        }


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"code": "", "discount": 10}, "code", "This field may not be blank."),
        ({"code": "   ", "discount": 10}, "code", "This field may not be blank."),
        ({"code": "X", "discount": 0}, "discount", "The discount is a whole percent from 1 to 100."),
        ({"code": "X", "discount": 101}, "discount", "The discount is a whole percent from 1 to 100."),
        ({"code": "X", "discount": 12.5}, "discount", "The discount is a whole percent from 1 to 100."),
        ({"code": "X", "discount": "ten"}, "discount", "The discount is a whole percent from 1 to 100."),
        ({"code": "X"}, "discount", "This field is required."),
        ({"code": "X" * 41, "discount": 10}, "code", "Ensure this field has no more than 40 characters."),
        ({"code": "summer10", "discount": 5}, "code", "There is already a coupon SUMMER10."),
    ],
)
def test_bad_coupon_input_answers_400_with_a_clear_message(admin, body, field, message):
    Coupon.objects.create(code="SUMMER10", discount=10)

    response = admin.post("/api/coupons", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()[field] == [message]
    assert Coupon.objects.count() == 1


def test_an_admin_sets_and_clears_a_coupons_limits(admin):
    limits = {"oncePerPerson": True, "maxUses": 100, "validFrom": "2026-06-01", "validUntil": "2026-08-31"}

    created = admin.post(
        "/api/coupons", {"code": "summer", "discount": 10, **limits}, content_type="application/json"
    )
    url = created.json()["url"]
    cleared = admin.patch(
        url, {"maxUses": None, "validFrom": None, "validUntil": None}, content_type="application/json"
    )

    assert created.status_code == 201
    assert {field: created.json()[field] for field in limits} == limits
    assert (created.json()["validFromLabel"], created.json()["validUntilLabel"]) == (
        "June 1, 2026",
        "August 31, 2026",
    )
    assert cleared.status_code == 200
    assert cleared.json() | {"url": url} == created.json() | {
        "maxUses": None,
        "validFrom": None,
        "validFromLabel": None,
        "validUntil": None,
        "validUntilLabel": None,
    }
    coupon = Coupon.objects.get()
    assert (coupon.once_per_person, coupon.max_uses, coupon.valid_from) == (True, None, None)


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"maxUses": 0}, "maxUses", "A coupon is used at least once: leave this empty for no limit."),
        ({"maxUses": "lots"}, "maxUses", "A valid integer is required."),
        ({"maxUses": 100_001}, "maxUses", "Ensure this value is less than or equal to 100000."),
        ({"oncePerPerson": "perhaps"}, "oncePerPerson", "Must be a valid boolean."),
        (
            {"validFrom": "June 1st"},
            "validFrom",
            "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.",
        ),
        (
            {"validFrom": "2026-09-01", "validUntil": "2026-08-31"},
            "validUntil",
            "The last day comes on or after the first (2026-09-01).",
        ),
    ],
)
def test_bad_coupon_limits_answer_400_with_a_message_for_the_field(admin, body, field, message):
    response = admin.post(
        "/api/coupons", {"code": "X", "discount": 10, **body}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert not Coupon.objects.exists()


def test_a_change_that_puts_the_last_day_before_the_first_is_refused(admin):
    coupon = Coupon.objects.create(code="SUMMER10", discount=10, valid_from=date(2026, 6, 1))

    response = admin.patch(
        f"/api/coupons/{coupon.pk}", {"validUntil": "2026-05-31"}, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {"validUntil": ["The last day comes on or after the first (2026-06-01)."]}
    coupon.refresh_from_db()
    assert coupon.valid_until is None


@pytest.mark.usefixtures("_emulator")  # seed_demo makes the demo accounts in the emulator
def test_the_demo_welcome_coupon_is_once_per_person():
    call_command("seed_demo", verbosity=0)

    assert Coupon.objects.get(code="WELCOME20").once_per_person


def test_an_unknown_coupon_answers_404(admin):
    assert (
        admin.patch("/api/coupons/999", {"discount": 5}, content_type="application/json").status_code == 404
    )
    assert admin.delete("/api/coupons/999").status_code == 404
