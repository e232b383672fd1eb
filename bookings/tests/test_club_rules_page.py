"""The Club Rules page: admins change the booking policy on a form, with each error under its field."""

import re
from decimal import Decimal

import pytest

from bookings.selectors import policy_get

pytestmark = pytest.mark.django_db

URL = "/dashboard/club-rules"
RULES = {
    "approval_required": "",  # unticked: instant booking
    "decision_window_hours": "48",
    "payment_window_hours": "12",
    "checkout_hold_minutes": "15",
    "advance_days_user": "7",
    "advance_days_member": "60",
    "open_bookings_limit": "3",
    "daily_hours_limit": "",
    "cancel_cutoff_hours": "48",
    "refund_percent": "100",
    "late_refund_percent": "50",
    "price_sharing": "shared",
    "guest_fee": "5.00",
    "series_payment": "per_date",
    "waitlist_hold_minutes": "20",
    "membership_grace_days": "10",
}


@pytest.mark.parametrize(
    ("kind", "lands_on"),
    [("anonymous", "/login?next=/dashboard/club-rules"), ("owner", "/forbidden"), ("member", "/forbidden")],
)
def test_only_admins_see_the_rules_page(people, kind, lands_on):
    response = people[kind].get(URL)

    assert response.status_code == 302
    assert response["Location"] == lands_on
    assert people[kind].post(URL, RULES)["Location"] == lands_on
    assert policy_get().approval_required is True


def test_an_admin_changes_the_rules_and_they_hold_from_then_on(people):
    page = people["admin"].get(URL).content.decode()
    assert "Cancelling a paid booking" in page
    assert 'name="refund_percent" value="100"' in page
    assert 'name="decision_window_hours" value="48"' in page
    assert 'name="payment_window_hours" value="24"' in page

    response = people["admin"].post(URL, RULES, follow=True)

    assert "The club&#x27;s rules have been saved." in response.content.decode()
    policy = policy_get()
    assert policy.approval_required is False
    assert (policy.checkout_hold_minutes, policy.advance_days_member, policy.daily_hours_limit) == (
        15,
        60,
        None,
    )
    assert (policy.cancel_cutoff_hours, policy.late_refund_percent, policy.waitlist_hold_minutes) == (
        48,
        50,
        20,
    )
    assert (policy.payment_window_hours, policy.membership_grace_days) == (12, 10)
    assert (policy.price_sharing, policy.guest_fee) == ("shared", Decimal("5.00"))
    assert policy.series_payment == "per_date"
    assert people["anonymous"].get("/api/policy").json()["lateRefundPercent"] == 50


def test_an_admin_sets_the_limits_on_unpaid_hours_and_the_wait_before_requesting_again(people):
    page = people["admin"].get(URL).content.decode()
    assert 'name="daily_open_hours_limit" value="3"' in page
    assert 'name="weekly_open_hours_limit" value="6"' in page
    assert 'name="rerequest_cooldown_minutes" value="10"' in page

    people["admin"].post(
        URL,
        {
            **RULES,
            "daily_open_hours_limit": "4",
            "weekly_open_hours_limit": "",
            "rerequest_cooldown_minutes": "30",
        },
    )

    policy = policy_get()
    assert (policy.daily_open_hours_limit, policy.weekly_open_hours_limit) == (4, None)
    assert policy.rerequest_cooldown_minutes == 30


def test_a_rule_out_of_bounds_is_refused_under_its_field_and_nothing_changes(people):
    response = people["admin"].post(URL, {**RULES, "refund_percent": "120", "checkout_hold_minutes": "1"})

    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_refund_percent_error"' in page
    assert "Ensure this value is less than or equal to 100." in page
    assert 'id="id_checkout_hold_minutes_error"' in page
    policy = policy_get()
    assert (policy.refund_percent, policy.checkout_hold_minutes, policy.approval_required) == (100, 10, True)


def test_the_admins_sidebar_links_to_the_rules(people):
    assert 'href="/dashboard/club-rules"' in people["admin"].get("/dashboard").content.decode()
    assert 'href="/dashboard/club-rules"' not in people["member"].get("/dashboard").content.decode()


def _input(page: str, name: str) -> str:
    """The rendered <input> named `name`."""
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert match, f"no input {name}"
    return match.group(0)


def test_each_rule_carries_the_bounds_the_server_holds_it_to(people):
    page = people["admin"].get(URL).content.decode()

    refund = _input(page, "refund_percent")
    assert ('min="0"' in refund, 'max="100"' in refund, "required" in refund) == (True, True, True)
    hold = _input(page, "checkout_hold_minutes")
    assert ('min="2"' in hold, 'max="120"' in hold) == (True, True)
    advance = _input(page, "advance_days_member")
    assert ('min="0"' in advance, 'max="365"' in advance) == (True, True)
    daily = _input(page, "daily_hours_limit")
    assert ('min="1"' in daily, 'max="24"' in daily, "required" in daily) == (True, True, False)


def test_a_refused_save_lists_each_problem_at_the_top_of_the_form_with_a_link_to_its_field(people):
    response = people["admin"].post(
        URL, {**RULES, "refund_percent": "120", "checkout_hold_minutes": "1", "advance_days_user": "999"}
    )

    page = response.content.decode()
    summary = page[page.index('id="error-summary"') : page.index("</fieldset>")]
    assert 'role="alert"' in page[page.index("<form") : page.index('id="error-summary"') + 100]
    assert "3 problems" in summary
    assert summary.index('href="#id_checkout_hold_minutes"') < summary.index('href="#id_refund_percent"')
    assert 'href="#id_advance_days_user"' in summary
    assert "Ensure this value is less than or equal to 365." in summary
    assert page.index('id="error-summary"') < page.index("<fieldset")
    assert 'id="id_advance_days_user_error"' in page


def test_a_saved_or_fresh_form_has_no_summary(people):
    assert 'id="error-summary"' not in people["admin"].get(URL).content.decode()
