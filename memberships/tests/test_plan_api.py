"""The plans' API: anyone reads the plans on sale; admins read them all and add, change and delete
them, each refusal a 400 with a message per field."""

from decimal import Decimal

import pytest

from memberships.models import Plan
from memberships.services import plan_create

pytestmark = pytest.mark.django_db

DENIED = {"anonymous": 401, "user": 403, "member": 403}
JSON = "application/json"


def plans_on_and_off_sale() -> tuple[Plan, Plan]:
    club = plan_create(
        name="Club",
        description="Play more, pay less",
        price=Decimal("30.00"),
        period="monthly",
        renews_automatically=True,
        member_price_kind="percent",
        member_price_value=Decimal("20"),
        hours_per_week=6,
    )
    old = plan_create(name="Old", price=Decimal("10.00"), period="yearly", on_sale=False)
    return club, old


def test_anyone_lists_the_plans_on_sale_and_admins_every_plan(caller):
    kind, client = caller
    club, _ = plans_on_and_off_sale()

    response = client.get("/api/plans")

    assert response.status_code == 200
    assert [plan["name"] for plan in response.json()] == (["Club", "Old"] if kind == "admin" else ["Club"])
    assert response.json()[0] == {
        "id": club.pk,
        "name": "Club",
        "description": "Play more, pay less",
        "price": "30.00",
        "period": "monthly",
        "seasonStartsOn": None,
        "seasonEndsOn": None,
        "renewsAutomatically": True,
        "onSale": True,
        "memberPriceKind": "percent",
        "memberPriceValue": "20.00",
        "bookingWindowDays": None,
        "openBookingsLimit": None,
        "hoursPerDay": None,
        "hoursPerWeek": 6,
        "peakHoursPerWeek": None,
        "membersOnlyHours": False,
        "seasonStartsOnLabel": None,
        "seasonEndsOnLabel": None,
        "url": f"/api/plans/{club.pk}",
    }


@pytest.mark.parametrize(
    ("on_sale", "admin_sees"), [("true", ["Club"]), ("false", ["Old"]), ("", ["Club", "Old"])]
)
def test_admins_choose_plans_on_or_off_sale_and_anyone_else_sees_those_on_sale(caller, on_sale, admin_sees):
    kind, client = caller
    plans_on_and_off_sale()

    response = client.get(f"/api/plans?on_sale={on_sale}")

    assert [plan["name"] for plan in response.json()] == (admin_sees if kind == "admin" else ["Club"])


def test_a_malformed_filter_is_a_400(client):
    response = client.get("/api/plans?on_sale=perhaps")

    assert (response.status_code, list(response.json())) == (400, ["on_sale"])


def test_listing_the_plans_takes_the_same_queries_however_many(people, django_assert_max_num_queries):
    for number in range(30):
        plan_create(name=f"Plan {number}", price=Decimal("10.00"), period="monthly")

    with django_assert_max_num_queries(6):
        assert len(people["admin"].get("/api/plans?limit=100").json()) == 30
    with django_assert_max_num_queries(2):
        assert len(people["anonymous"].get("/api/plans?limit=100").json()) == 30


def test_only_admins_add_change_and_delete_plans(caller):
    kind, client = caller
    club, _ = plans_on_and_off_sale()

    created = client.post(
        "/api/plans",
        {
            "name": "Summer",
            "price": "150",
            "period": "season",
            "seasonStartsOn": "2027-05-01",
            "seasonEndsOn": "2027-09-30",
            "memberPriceKind": "fixed",
            "memberPriceValue": "12.50",
        },
        content_type=JSON,
    )
    changed = client.patch(f"/api/plans/{club.pk}", {"onSale": False}, content_type=JSON)
    deleted = client.delete(f"/api/plans/{club.pk}")

    if kind == "admin":
        assert (created.status_code, changed.status_code, deleted.status_code) == (201, 200, 204)
        assert (created.json()["seasonEndsOnLabel"], changed.json()["onSale"]) == (
            "September 30, 2027",
            False,
        )
        assert sorted(Plan.objects.values_list("name", flat=True)) == ["Old", "Summer"]
    else:
        assert {created.status_code, changed.status_code, deleted.status_code} == {DENIED[kind]}
        assert sorted(Plan.objects.values_list("name", "on_sale")) == [("Club", True), ("Old", False)]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "Old"}, "name"),
        ({"price": "0"}, "price"),
        ({"price": "100000.01"}, "price"),
        ({"price": "cheap"}, "price"),
        ({"period": "weekly"}, "period"),
        ({"seasonStartsOn": "2027-05-01"}, "seasonStartsOn"),
        (
            {
                "period": "season",
                "seasonStartsOn": "2027-05-01",
                "seasonEndsOn": "2027-05-01",
                "renewsAutomatically": False,
            },
            "seasonEndsOn",
        ),
        (
            {
                "period": "season",
                "renewsAutomatically": True,
                "seasonStartsOn": "2027-05-01",
                "seasonEndsOn": "2027-09-30",
            },
            "renewsAutomatically",
        ),
        ({"memberPriceKind": "percent", "memberPriceValue": "101"}, "memberPriceValue"),
        ({"memberPriceKind": "percent", "memberPriceValue": "0"}, "memberPriceValue"),
        ({"memberPriceKind": "fixed", "memberPriceValue": "10000.01"}, "memberPriceValue"),
        ({"memberPriceKind": "half"}, "memberPriceKind"),
        ({"bookingWindowDays": 366}, "bookingWindowDays"),
        ({"openBookingsLimit": 0}, "openBookingsLimit"),
        ({"hoursPerDay": 25}, "hoursPerDay"),
        ({"hoursPerWeek": 169}, "hoursPerWeek"),
        ({"peakHoursPerWeek": 0}, "peakHoursPerWeek"),
        ({"membersOnlyHours": "sometimes"}, "membersOnlyHours"),
    ],
)
def test_a_refused_plan_is_a_400_with_one_message_under_its_field(people, body, field):
    plans_on_and_off_sale()
    admin = people["admin"]

    created = admin.post(
        "/api/plans", {"name": "New", "price": "30", "period": "monthly", **body}, content_type=JSON
    )
    changed = admin.patch(f"/api/plans/{Plan.objects.get(name='Club').pk}", body, content_type=JSON)

    for response in (created, changed):
        assert response.status_code == 400
        assert list(response.json()) == [field]
        assert len(response.json()[field]) == 1
    assert Plan.objects.count() == 2
    assert Plan.objects.get(name="Club").price == Decimal("30.00")


def test_a_plan_that_is_not_there_is_a_404(people):
    admin = people["admin"]

    assert admin.patch("/api/plans/999", {"onSale": False}, content_type=JSON).status_code == 404
    assert admin.delete("/api/plans/999").status_code == 404
