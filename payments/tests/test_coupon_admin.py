"""Coupons in Django admin are saved through their services: the same rules and audit entries as
Manage Coupons."""

import pytest

from audit.models import AuditEntry
from payments.admin import CouponAdmin
from payments.coupons import coupon_create
from payments.models import Coupon

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
    response = people["admin"].post("/admin/payments/coupon/add/", COUPON, follow=True)

    coupon = Coupon.objects.get()
    assert coupon.code == "SPRING"
    assert "was added successfully" in response.content.decode()
    [(who, action, before, after)] = trail()
    assert (who, action, before) == ("ann@example.com", "coupon.create", None)
    assert (after["code"], after["discount"]) == ("SPRING", 10)


def test_a_coupon_changed_in_django_admin_is_one_entry_with_its_values(people):
    coupon = coupon_create(code="SPRING", discount=10)

    response = people["admin"].post(
        f"/admin/payments/coupon/{coupon.pk}/change/", {**COUPON, "discount": "20"}, follow=True
    )

    assert "was changed successfully" in response.content.decode()
    assert Coupon.objects.get().discount == 20
    [(who, action, before, after)] = trail()[1:]  # after the coupon's own creation (by the site)
    assert (who, action) == ("ann@example.com", "coupon.update")
    assert (before["discount"], after["discount"]) == (10, 20)


def test_a_code_taken_in_another_case_is_refused_on_the_form(people):
    coupon_create(code="SPRING", discount=10)

    response = people["admin"].post("/admin/payments/coupon/add/", COUPON)

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

    response = people["admin"].post("/admin/payments/coupon/add/", COUPON, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain == [("/admin/payments/coupon/add/", 302)]
    assert "There is already a coupon SPRING." in response.content.decode()
    assert not Coupon.objects.filter(discount=10).exists()
    assert trail() == []  # nothing of the refused save is left (nor, here, of the staged one)


def test_coupons_deleted_in_django_admin_are_audited_each(people):
    first, second = coupon_create(code="A", discount=10), coupon_create(code="B", discount=20)

    response = people["admin"].post(
        "/admin/payments/coupon/",
        {"action": "delete_selected", "_selected_action": [first.pk, second.pk], "post": "yes"},
        follow=True,
    )

    assert "Successfully deleted 2 coupons." in response.content.decode()
    assert not Coupon.objects.exists()
    deleted = AuditEntry.objects.filter(action="coupon.delete").order_by("id")
    assert [entry.before["code"] for entry in deleted] == ["A", "B"]
