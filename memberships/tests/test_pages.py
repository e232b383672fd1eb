"""Membership Plans: the admins' page of the plans, and the plans in Django admin, saved through
the same services and audit."""

from decimal import Decimal

import pytest

from audit.models import AuditEntry
from memberships.models import Plan
from memberships.services import plan_create

pytestmark = pytest.mark.django_db

PAGE = "/dashboard/membership-plans"


@pytest.mark.parametrize(
    ("kind", "where"),
    [
        ("anonymous", f"/login?next={PAGE}"),
        ("owner", "/forbidden"),
        ("other", "/forbidden"),
        ("member", "/forbidden"),
    ],
)
def test_only_admins_open_membership_plans(people, kind, where):
    response = people[kind].get(PAGE)

    assert (response.status_code, response["Location"]) == (302, where)


def test_membership_plans_hands_its_island_every_plan_and_what_the_api_accepts(people):
    plan_create(name="Old", price=Decimal("10"), period="yearly", on_sale=False)
    plan_create(name="Club", price=Decimal("30"), period="monthly")

    response = people["admin"].get(PAGE)

    assert response.status_code == 200
    assert "Membership Plans" in response.content.decode()
    props = response.context["island_props"]
    assert [plan["name"] for plan in props["plans"]] == ["Club", "Old"]
    assert props["createUrl"] == "/api/plans"
    bounds = props["bounds"]
    assert bounds["name"] == {"required": True, "maxLength": 100}
    assert bounds["price"] == {"required": True, "min": "0.01", "max": "100000", "step": "0.01"}
    assert bounds["hoursPerWeek"] == {"required": False, "min": "1", "max": "168", "step": "1"}
    assert bounds["bookingWindowDays"] == {"required": False, "min": "0", "max": "365", "step": "1"}


def test_the_sidebar_links_membership_plans_for_admins_after_manage_coupons(people):
    admin_page = people["admin"].get("/dashboard").content.decode()

    assert admin_page.index("Manage Coupons") < admin_page.index("Membership Plans")
    assert "Membership Plans" not in people["member"].get("/dashboard").content.decode()


def test_membership_plans_takes_the_same_queries_however_many_plans(people, django_assert_max_num_queries):
    admin = people["admin"]
    admin.get(PAGE)
    with django_assert_max_num_queries(8) as few:
        admin.get(PAGE)
    for number in range(30):
        plan_create(name=f"Plan {number}", price=Decimal("10.00"), period="monthly")

    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(admin.get(PAGE).context["island_props"]["plans"]) == 30


ADMIN_FORM = {
    "name": "Club",
    "description": "",
    "price": "30.00",
    "period": "monthly",
    "season_starts_on": "",
    "season_ends_on": "",
    "renews_automatically": "on",
    "on_sale": "on",
    "member_price_kind": "percent",
    "member_price_value": "20",
    "booking_window_days": "",
    "open_bookings_limit": "",
    "hours_per_day": "",
    "hours_per_week": "6",
    "peak_hours_per_week": "",
}


def trail() -> list[tuple]:
    return list(AuditEntry.objects.order_by("id").values_list("actor_email", "action", "before", "after"))


def test_a_plan_added_changed_and_deleted_in_django_admin_is_audited_as_on_membership_plans(people):
    admin = people["admin"]

    added = admin.post("/admin/memberships/plan/add/", ADMIN_FORM, follow=True)
    plan = Plan.objects.get()
    changed = admin.post(
        f"/admin/memberships/plan/{plan.pk}/change/", {**ADMIN_FORM, "price": "35.00"}, follow=True
    )
    deleted = admin.post(f"/admin/memberships/plan/{plan.pk}/delete/", {"post": "yes"}, follow=True)

    assert "was added successfully" in added.content.decode()
    assert "was changed successfully" in changed.content.decode()
    assert "was deleted successfully" in deleted.content.decode()
    assert [(who, action) for who, action, _, _ in trail()] == [
        ("ann@example.com", "plan.create"),
        ("ann@example.com", "plan.update"),
        ("ann@example.com", "plan.delete"),
    ]
    (_, _, _, created), (_, _, before, after), _ = trail()
    assert (created["hours_per_week"], before["price"], after["price"]) == (6, "30.00", "35.00")
    assert not Plan.objects.exists()


def test_django_admin_refuses_a_season_plan_that_renews_under_the_field(people):
    form = {
        **ADMIN_FORM,
        "period": "season",
        "season_starts_on": "2027-05-01",
        "season_ends_on": "2027-09-30",
    }

    response = people["admin"].post("/admin/memberships/plan/add/", form)

    assert response.status_code == 200
    assert "A season plan ends with its season: it does not renew." in response.content.decode()
    assert not Plan.objects.exists()
    assert not AuditEntry.objects.exists()
