"""A plan's rules at each boundary, as the service refuses them (one message per field, under the
API's names), and each change audited."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from audit.models import AuditEntry
from memberships.models import Plan
from memberships.services import plan_create, plan_delete, plan_update

pytestmark = pytest.mark.django_db

MONTHLY = {"name": "Club", "price": Decimal("30.00"), "period": "monthly"}
SEASON = {
    "name": "Summer",
    "price": Decimal("150.00"),
    "period": "season",
    "season_starts_on": date(2027, 5, 1),
    "season_ends_on": date(2027, 9, 30),
}


def refusal(**fields) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        plan_create(**fields)
    assert not Plan.objects.exists()
    return refused.value.message_dict


def test_a_monthly_plan_with_every_benefit_is_saved():
    plan = plan_create(
        **MONTHLY,
        renews_automatically=True,
        member_price_kind="percent",
        member_price_value=Decimal("20"),
        booking_window_days=60,
        open_bookings_limit=8,
        hours_per_day=3,
        hours_per_week=10,
        peak_hours_per_week=4,
        members_only_hours=True,
    )

    assert Plan.objects.get() == plan
    assert (plan.on_sale, plan.hours_per_week, plan.member_price_value) == (True, 10, Decimal("20"))


def test_a_season_plan_is_saved_with_its_dates():
    assert plan_create(**SEASON).season_ends_on == date(2027, 9, 30)


@pytest.mark.parametrize(
    ("dates", "refused"),
    [
        ({"season_starts_on": None}, {"seasonStartsOn": ["A season plan has its first and last day."]}),
        ({"season_ends_on": None}, {"seasonEndsOn": ["A season plan has its first and last day."]}),
        ({"season_ends_on": date(2027, 5, 1)}, {"seasonEndsOn": ["The season ends after it starts."]}),
        ({"season_ends_on": date(2027, 4, 30)}, {"seasonEndsOn": ["The season ends after it starts."]}),
    ],
)
def test_a_season_has_a_first_day_before_its_last(dates, refused):
    assert refusal(**{**SEASON, **dates}) == refused


def test_a_season_plan_does_not_renew():
    assert refusal(**SEASON, renews_automatically=True) == {
        "renewsAutomatically": ["A season plan ends with its season: it does not renew."]
    }


@pytest.mark.parametrize("period", ["monthly", "yearly"])
def test_only_a_season_plan_has_dates(period):
    assert refusal(**{**SEASON, "period": period}) == {
        "seasonStartsOn": ["Only a season plan has dates: leave them empty."],
        "seasonEndsOn": ["Only a season plan has dates: leave them empty."],
    }


PERCENT_RULE = ["The percent off is a whole number from 1 to 99."]
FIXED_RULE = ["A member price is from 0.01 to 10000, as a court's."]


@pytest.mark.parametrize(
    ("kind", "value", "refused"),
    [
        ("percent", "0", PERCENT_RULE),
        ("percent", "1", None),
        ("percent", "99", None),
        ("percent", "100", PERCENT_RULE),
        ("percent", "101", PERCENT_RULE),
        ("percent", "12.5", PERCENT_RULE),
        ("fixed", "0.00", FIXED_RULE),
        ("fixed", "0.01", None),
        ("fixed", "10000", None),
        ("fixed", "10000.01", FIXED_RULE),
        ("fixed", None, ["Please enter the member price."]),
        ("none", "5", ["Leave the member price empty when members pay the court's price."]),
        ("none", None, None),
    ],
)
def test_a_member_price_is_a_percent_from_1_to_99_or_a_fixed_price_as_a_courts(kind, value, refused):
    fields = {**MONTHLY, "member_price_kind": kind, "member_price_value": value and Decimal(value)}
    if refused is None:
        assert plan_create(**fields).member_price_kind == kind
    else:
        assert refusal(**fields) == {"memberPriceValue": refused}


LIMITS = [
    ("booking_window_days", "bookingWindowDays", 0, 365),
    ("open_bookings_limit", "openBookingsLimit", 1, 100),
    ("hours_per_day", "hoursPerDay", 1, 24),
    ("hours_per_week", "hoursPerWeek", 1, 168),
    ("peak_hours_per_week", "peakHoursPerWeek", 1, 168),
]


@pytest.mark.parametrize(("field", "api_field", "lowest", "highest"), LIMITS)
def test_each_limit_is_bounded_as_the_club_rules_are_or_left_to_them(field, api_field, lowest, highest):
    saved = [
        plan_create(**{**MONTHLY, "name": str(value), field: value}) for value in (lowest, highest, None)
    ]

    assert [getattr(plan, field) for plan in saved] == [lowest, highest, None]
    assert list(refusal_besides(saved, **{**MONTHLY, field: highest + 1})) == [api_field]
    if lowest:  # a window of 0 days books today only; the other limits hold one at least
        assert list(refusal_besides(saved, **{**MONTHLY, field: lowest - 1})) == [api_field]


def refusal_besides(saved: list[Plan], **fields) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as refused:
        plan_create(**fields)
    assert list(Plan.objects.all()) == sorted(saved, key=lambda plan: plan.name)
    return refused.value.message_dict


@pytest.mark.parametrize(
    ("price", "saved"), [("0.00", False), ("0.01", True), ("100000", True), ("100000.01", False)]
)
def test_a_plans_price_is_from_a_cent_to_a_hundred_thousand(price, saved):
    if saved:
        assert plan_create(**{**MONTHLY, "price": Decimal(price)}).price == Decimal(price)
    else:
        assert list(refusal(**{**MONTHLY, "price": Decimal(price)})) == ["price"]


def test_a_name_is_one_plans():
    plan_create(**MONTHLY)

    with pytest.raises(ValidationError) as refused:
        plan_create(**MONTHLY)

    assert refused.value.message_dict == {"name": ["There is already a plan with this name."]}


def test_a_change_that_breaks_a_rule_is_refused_and_not_saved():
    plan = plan_create(**MONTHLY)

    with pytest.raises(ValidationError) as refused:
        plan_update(plan=plan, period="season")

    assert refused.value.message_dict == {
        "seasonStartsOn": ["A season plan has its first and last day."],
        "seasonEndsOn": ["A season plan has its first and last day."],
    }
    assert Plan.objects.get().period == "monthly"


def test_adding_changing_and_deleting_a_plan_are_audited_with_its_values(people):
    from accounts.models import User

    ann = User.objects.get(email="ann@example.com")
    plan = plan_create(by=ann, **MONTHLY)
    plan_update(plan=plan, by=ann, price=Decimal("35.00"), on_sale=False)
    plan_delete(plan=plan, by=ann)

    rows = list(AuditEntry.objects.order_by("id").values_list("action", "summary", "before", "after"))
    assert [(action, summary) for action, summary, _, _ in rows] == [
        ("plan.create", "Added plan Club"),
        ("plan.update", "Changed plan Club"),
        ("plan.delete", "Deleted plan Club"),
    ]
    assert (rows[0][3]["price"], rows[0][3]["period"]) == ("30.00", "monthly")
    assert (rows[1][2]["price"], rows[1][3]["price"], rows[1][3]["on_sale"]) == ("30.00", "35.00", False)
    assert rows[2][2]["name"] == "Club"
    assert not Plan.objects.exists()
