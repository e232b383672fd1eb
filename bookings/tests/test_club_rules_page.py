"""The Club Rules page: admins change the booking policy on a form, with each error under its field."""

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
    "waitlist_hold_minutes": "20",
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
    assert policy.payment_window_hours == 12
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
