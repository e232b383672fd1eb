"""The membership calls: POST /api/memberships (pay a plan's first period), POST
/api/memberships/me/renewal (pay a past-due renewal with another card), POST
/api/memberships/me/cancel (do not renew), for each kind of caller."""

from decimal import Decimal

import pytest

from accounts.models import User
from memberships.models import Membership
from memberships.tests.factories import make_plan
from payments.membership_payments import subscription_sync
from payments.models import Payment
from payments.tests.test_membership_payments import join
from testing import stripe_stand_in

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def club(localstripe):
    return make_plan(name="Club", price=Decimal("30.00"), period="monthly", renews_automatically=True)


def checkout(client, plan_id):
    return client.post("/api/memberships", {"planId": plan_id}, content_type=JSON)


def test_a_signed_in_person_gets_the_secret_of_the_first_invoice_of_their_subscription(people, club):
    response = checkout(people["owner"], club.pk)

    assert response.status_code == 200
    assert "_secret_" in response.json()["clientSecret"]
    membership = Membership.objects.get(user__email="ada@example.com")
    assert (membership.status, membership.plan) == ("pending", club)
    payment = Payment.objects.get(membership=membership)
    assert (payment.status, payment.amount) == ("pending", Decimal("30.00"))


def test_an_anonymous_caller_is_asked_to_sign_in(people, club):
    assert checkout(people["anonymous"], club.pk).status_code == 401
    assert not Membership.objects.exists()


@pytest.mark.parametrize(("plan_id", "status_code"), [(None, 400), ("x", 400), (999, 404)])
def test_a_plan_that_is_not_on_sale_or_no_plan_is_refused(people, club, plan_id, status_code):
    response = checkout(people["owner"], plan_id)

    assert response.status_code == status_code
    if status_code == 400:
        assert list(response.json()) == ["planId"]
    assert not Membership.objects.exists()


def test_a_plan_taken_off_sale_is_a_404(people, club):
    club.on_sale = False
    club.save()

    assert checkout(people["owner"], club.pk).status_code == 404


def test_someone_holding_a_membership_cannot_buy_another(people, club):
    join(User.objects.get(email="ada@example.com"), club)
    other = make_plan(name="Premium", price=Decimal("300"), period="yearly")

    response = checkout(people["owner"], other.pk)

    assert response.status_code == 409
    assert response.json() == {"detail": "You hold the Club membership already (active)."}


@pytest.mark.parametrize("kind", ["anonymous", "owner", "other", "member", "admin"])
def test_only_the_holder_of_a_renewing_membership_cancels_it(people, club, kind):
    ada = User.objects.get(email="ada@example.com")
    membership = join(ada, club)

    response = people[kind].post("/api/memberships/me/cancel")

    expected = {"anonymous": 401, "owner": 200}.get(kind, 409)
    assert response.status_code == expected
    membership.refresh_from_db()
    assert membership.cancel_at_period_end is (kind == "owner")
    if kind == "owner":
        assert response.json()["detail"].endswith(": it will not renew.")
    elif kind != "anonymous":
        assert response.json() == {"detail": "You hold no membership to end."}


@pytest.mark.parametrize("kind", ["anonymous", "owner", "other", "admin"])
def test_only_the_holder_of_a_past_due_membership_pays_its_renewal(people, club, kind):
    membership = join(User.objects.get(email="ada@example.com"), club)
    stripe_stand_in.renew(membership.stripe_subscription_id, fail=True)
    subscription_sync(subscription_id=membership.stripe_subscription_id)

    response = people[kind].post("/api/memberships/me/renewal")

    assert response.status_code == {"anonymous": 401, "owner": 200}.get(kind, 409)
    if kind == "owner":
        assert "_secret_" in response.json()["clientSecret"]
