"""Memberships in Django admin are to read, with their history: their states move only through
their services (Stripe's answers, the calendar), so nothing is added, changed or deleted there."""

import re

import pytest

from accounts.models import User
from memberships.models import Membership
from memberships.services import membership_renewal_failed
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/memberships/membership/"
COLUMNS = ["user", "plan", "status"]


@pytest.fixture
def memberships(people):
    """Ada holds the Club plan, past due; Mia the Premium plan, active."""
    club, premium = make_plan(name="Club", period="monthly"), make_plan(name="Premium")
    ada = make_membership(user=User.objects.get(email="ada@example.com"), plan=club)
    membership_renewal_failed(membership_id=ada.pk, grace_until=ada.period_end, reason="Card declined.")
    mia = make_membership(user=User.objects.get(email="mia@example.com"), plan=premium)
    return {"ada": ada, "mia": mia}


def test_the_list_shows_each_membership_with_its_person_plan_and_state(people, memberships):
    page = people["admin"].get(CHANGELIST).content.decode()

    rows = [
        tuple(
            re.search(rf'class="field-{field}[^"]*">(?:<a [^>]*>)?([^<]*)', row).group(1) for field in COLUMNS
        )
        for row in re.findall(r"<tr>.*?</tr>", page, re.S)
        if "field-plan" in row
    ]
    assert sorted(rows) == [("ada@example.com", "Club", "Past due"), ("mia@example.com", "Premium", "Active")]


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("status__exact=past_due", "ada@example.com", "mia@example.com"),
        ("plan__id__exact={premium}", "mia@example.com", "ada@example.com"),
        ("q=MIA@", "mia@example.com", "ada@example.com"),
    ],
    ids=["by status", "by plan", "by e-mail"],
)
def test_the_list_is_filtered_by_plan_and_state_and_searched_by_e_mail(
    people, memberships, query, shown, hidden
):
    query = query.format(premium=memberships["mia"].plan_id)

    page = people["admin"].get(f"{CHANGELIST}?{query}").content.decode()

    assert shown in page
    assert hidden not in page


def test_a_membership_is_read_with_its_history_and_its_state_is_never_edited(people, memberships):
    path = f"{CHANGELIST}{memberships['ada'].pk}/change/"

    page = people["admin"].get(path).content.decode()
    edited = people["admin"].post(path, {"status": "active", "grace_until": "", "cancel_at_period_end": "on"})

    assert "Membership changes" in page
    assert page.count('<td class="field-to_status">') == 2  # paid, then its renewal failed
    assert "Card declined." in page
    assert not any(f'name="{field}"' in page for field in ("status", "period_end", "grace_until", "plan"))
    assert edited.status_code == 403
    ada = Membership.objects.get(pk=memberships["ada"].pk)
    assert (ada.status, ada.cancel_at_period_end) == (Membership.Status.PAST_DUE, False)


def test_memberships_are_neither_added_nor_deleted_there(people, memberships):
    admin = people["admin"]
    pk = memberships["mia"].pk

    added = admin.get(f"{CHANGELIST}add/")
    deleted = admin.post(f"{CHANGELIST}{pk}/delete/", {"post": "yes"})
    admin.post(CHANGELIST, {"action": "delete_selected", "_selected_action": [pk], "post": "yes"})

    assert (added.status_code, deleted.status_code) == (403, 403)
    assert Membership.objects.filter(pk=pk).exists()
    assert "delete_selected" not in admin.get(CHANGELIST).content.decode()
