"""Paying for memberships. A plan that does not renew is paid once, by a PaymentIntent, as a
booking is (payments.services). A renewing plan is a Stripe subscription: its first invoice is paid
with the same card form, and that card pays each renewal, which Stripe charges by itself and tells
of by webhook. Stripe's word on a subscription is read from Stripe whenever it sends one (an event
replayed, or come out of order, only makes the site look again), and each invoice paid is one
payment row.

As everywhere in payments, no transaction is open while Stripe is asked: the membership row is
written first, and the keys of what is asked of Stripe are made from its id."""

import logging
from datetime import datetime, timedelta
from typing import Any, cast

import stripe
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from accounts.models import User
from accounts.services import user_end_membership
from bookings.selectors import policy_get
from kernel.errors import Conflict
from kernel.money import from_cents, to_cents
from memberships.models import Membership, Plan
from memberships.services import (
    membership_cancel_at_period_end,
    membership_end,
    membership_open,
    membership_renewal_failed,
)

from . import gateway, notices
from .models import Payment
from .services import (
    OPEN_INTENT_STATES,
    Quote,
    _intent_create,
    _payment_open,
    _record_payment,
    _stripe_intent,
    payment_confirm,
    refund_for_ended_membership,
)

# Stripe's subscription states that end a membership: cancelled (at the period's end, as asked, or
# by the club), or its first invoice never paid.
ENDED = {"canceled", "incomplete_expired"}
# Those in which a renewal is unpaid: its holder has the grace period to pay it.
UNPAID = {"past_due", "unpaid"}
# The most past-due memberships one run of memberships_end_overdue ends.
OVERDUE_BATCH = 100

logger = logging.getLogger(__name__)


def membership_checkout(*, user: User, plan: Plan) -> str:
    """The client secret the card form pays the first period of `user`'s membership of `plan` with:
    a PaymentIntent for a plan that does not renew, its subscription's first invoice for one that
    does. Asked again, it answers the same, as long as it can be paid."""
    membership = membership_open(user=user, plan=plan)
    if not membership.renews:
        quote = Quote(price=membership.price, coupon=None, discount=0, total=membership.price)
        payment, client_secret = _payment_open(paying_for={"membership": membership}, user=user, quote=quote)
        return client_secret or _intent_create(payment=payment) or ""
    return _first_invoice_secret(membership)


def _first_invoice_secret(membership: Membership) -> str:
    pending = membership.payments.filter(status=Payment.Status.PENDING).first()
    if pending is not None:
        intent = _stripe_intent(pending)
        if intent is not None and intent.status in OPEN_INTENT_STATES:
            return intent.client_secret or ""
        if intent is not None and intent.status == "succeeded":
            payment_confirm(payment_intent_id=intent.id)
            raise Conflict("Your membership has been paid already.")
    plan = membership.plan
    cents, interval = to_cents(membership.price), "month" if plan.period == Plan.Period.MONTHLY else "year"
    plan_ref = f"club-plan-{plan.pk}-{cents}-{interval}"
    gateway.ensure_stripe_plan(plan_ref=plan_ref, amount_cents=cents, interval=interval, name=plan.name)
    metadata = {"membership_id": str(membership.pk), "user_id": str(membership.user_id)}
    customer_id = membership.stripe_customer_id
    if not customer_id:
        customer = gateway.create_customer(
            email=membership.user.email,
            metadata=metadata,
            idempotency_key=f"membership-customer-{membership.pk}",
        )
        Membership.objects.filter(pk=membership.pk, stripe_customer_id="").update(
            stripe_customer_id=customer.id
        )
        customer_id = Membership.objects.values_list("stripe_customer_id", flat=True).get(pk=membership.pk)
    subscription = gateway.create_subscription(
        customer_id=customer_id,
        plan_ref=plan_ref,
        metadata=metadata,
        idempotency_key=f"membership-subscription-{membership.pk}",
    )
    Membership.objects.filter(pk=membership.pk, stripe_subscription_id=None).update(
        stripe_subscription_id=subscription.id
    )
    invoice = subscription.latest_invoice
    client_secret = gateway.invoice_client_secret(invoice)
    if not client_secret:
        raise Conflict("Stripe has no payment waiting for this membership. Please reload the page.")
    _invoice_payment(membership, invoice, intent_id=client_secret.split("_secret_")[0])
    return client_secret


def _invoice_payment(membership: Membership, invoice: Any, *, intent_id: str | None) -> Payment:
    """The payment row of a subscription's invoice: the one on record, or a new one, pending. A
    membership waits for one payment at a time: the row of another invoice still pending (a card
    form left unpaid for an invoice Stripe has since replaced) is cancelled first; it is recorded
    still, should Stripe say that invoice was paid after all."""
    for _attempt in range(2):  # the webhook may record the invoice between our read and our write
        try:
            with transaction.atomic():
                if payment := Payment.objects.filter(stripe_invoice_id=invoice.id).first():
                    return payment
                waiting = Payment.objects.select_for_update().filter(
                    membership=membership, status=Payment.Status.PENDING
                )
                for replaced in waiting:
                    replaced.move(Payment.Status.CANCELLED, locked=True)
                return Payment.objects.create(
                    stripe_invoice_id=invoice.id,
                    membership=membership,
                    user_id=membership.user_id,
                    amount=from_cents(invoice.amount_due),
                    currency=invoice.currency,
                    payment_intent_id=intent_id,
                )
        except IntegrityError:
            continue
    return Payment.objects.get(stripe_invoice_id=invoice.id)


def invoice_event(*, invoice_id: str) -> Membership | None:
    """What Stripe tells of an invoice (paid, or its payment failed), as Stripe has it now: the
    invoice recorded if paid, and its subscription's membership brought up to date. None if the
    invoice is not one of our subscriptions'."""
    invoice = gateway.retrieve_invoice(invoice_id)
    subscription_id = gateway.invoice_subscription_id(invoice)
    membership = Membership.objects.filter(stripe_subscription_id=subscription_id).first()
    if membership is None or subscription_id is None:
        return None
    _record_invoice(membership, invoice)
    return subscription_sync(subscription_id=subscription_id)


def _record_invoice(membership: Membership, invoice: Any) -> Payment | None:
    """An invoice of the membership's subscription, recorded once if paid: one payment row per
    invoice, the membership paid for the invoice's period."""
    if invoice.status != "paid":
        return None
    intent_id = gateway.invoice_intent_id(invoice)
    payment = _invoice_payment(membership, invoice, intent_id=intent_id)
    if payment.status in Payment.AWAITING_PAYMENT:
        card_last4 = (
            gateway.card_last4(gateway.retrieve_intent(intent_id, with_payment_method=True))
            if intent_id
            else ""
        )
        payment = _record_payment(payment, card_last4=card_last4, period=gateway.invoice_period(invoice))
    return payment


def subscription_sync(*, subscription_id: str, now: datetime | None = None) -> Membership | None:
    """Brings the membership of a subscription to where Stripe has it now: its last invoice recorded
    if paid; past due (with the policy's grace period, its holder told once per invoice) while a
    renewal is unpaid; ended once Stripe ended the subscription. None if it is not ours."""
    membership = Membership.objects.filter(stripe_subscription_id=subscription_id).first()
    if membership is None:
        return None
    subscription = gateway.retrieve_subscription(subscription_id)
    invoice = cast(stripe.Invoice | None, subscription.latest_invoice)  # expanded by retrieve_subscription
    if invoice is not None:
        _record_invoice(membership, invoice)
    if subscription.status in UNPAID and invoice is not None and invoice.status == "open":
        _renewal_unpaid(membership, invoice=invoice, now=now or timezone.now())
    elif subscription.status in ENDED:
        membership_end(
            membership_id=membership.pk, reason=f"Stripe ended its subscription ({subscription.status})."
        )
    return Membership.objects.get(pk=membership.pk)


@transaction.atomic
def _renewal_unpaid(membership: Membership, *, invoice: Any, now: datetime) -> None:
    grace_until = now + timedelta(days=policy_get().membership_grace_days)
    membership = membership_renewal_failed(
        membership_id=membership.pk,
        grace_until=grace_until,
        reason=f"The renewal (invoice {invoice.id}) was declined.",
    )
    if membership.status == Membership.Status.PAST_DUE:
        notices.renewal_failed(membership, invoice_id=invoice.id, amount=from_cents(invoice.amount_due))


def renewal_checkout(*, user: User) -> str:
    """The client secret the card form pays a past-due membership's unpaid renewal with (the new
    card then pays the next ones)."""
    membership = Membership.objects.filter(user=user, status=Membership.Status.PAST_DUE).first()
    if membership is None or not membership.stripe_subscription_id:
        raise Conflict("Your membership has no renewal waiting to be paid.")
    invoice = gateway.retrieve_subscription(membership.stripe_subscription_id).latest_invoice
    client_secret = gateway.invoice_client_secret(invoice)
    if not client_secret:
        subscription_sync(subscription_id=membership.stripe_subscription_id)
        raise Conflict("Your renewal has been paid already.")
    _invoice_payment(membership, invoice, intent_id=client_secret.split("_secret_")[0])
    return client_secret


def membership_cancel(*, user: User) -> Membership:
    """Its holder asks to end their membership at the end of the period paid: a subscription is
    told not to renew (Stripe ends it then, and tells us); a plan that does not renew ends anyway."""
    membership = Membership.objects.filter(
        user=user, status__in=(Membership.Status.ACTIVE, Membership.Status.PAST_DUE)
    ).first()
    if membership is None:
        raise Conflict("You hold no membership to end.")
    if not membership.renews:
        raise Conflict("Your membership does not renew: it ends with its period.")
    if membership.cancel_at_period_end:
        return membership
    gateway.cancel_at_period_end(
        str(membership.stripe_subscription_id), idempotency_key=f"membership-cancel-{membership.pk}"
    )
    return membership_cancel_at_period_end(membership_id=membership.pk)


def membership_end_by_club(*, member: User, by: User) -> None:
    """An admin ends a member's membership now (Manage Members): their subscription ends at Stripe
    first, then, in one transaction, their role, their membership, and the full refund of the
    period they paid for. Someone who holds no plan (a member by the club's first rule) only goes
    back to being a user."""
    membership = Membership.objects.filter(user=member, status__in=Membership.LIVE).first()
    if membership is not None and membership.stripe_subscription_id:
        gateway.cancel_subscription(
            membership.stripe_subscription_id, idempotency_key=f"membership-end-{membership.pk}"
        )
    with transaction.atomic():
        user_end_membership(member=member, by=by)
        if membership is not None:
            ended = membership_end(membership_id=membership.pk, reason=f"Ended by the club ({by.email}).")
            refund_for_ended_membership(membership=ended, by=by)


def memberships_end_overdue(*, now: datetime | None = None) -> int:
    """Ends the subscriptions of memberships past due beyond their grace period (Stripe then charges
    them no more), and the memberships with them. Answers how many were ended."""
    now = now or timezone.now()
    overdue = Membership.objects.filter(status=Membership.Status.PAST_DUE, grace_until__lte=now)
    count = 0
    for membership in overdue.order_by("grace_until")[:OVERDUE_BATCH]:
        try:
            if membership.stripe_subscription_id:
                gateway.cancel_subscription(
                    membership.stripe_subscription_id, idempotency_key=f"membership-end-{membership.pk}"
                )
        except gateway.PaymentProviderUnavailable as error:
            logger.warning("The subscription of membership %s could not be ended: %s", membership.pk, error)
            continue
        membership_end(
            membership_id=membership.pk, reason="Its renewal was not paid within the grace period.", now=now
        )
        count += 1
    return count


def memberships_reconcile(*, now: datetime | None = None) -> int:
    """Compares with Stripe the subscriptions of memberships whose renewal has not been heard of
    PAYMENT_RECONCILE_SECONDS after their period ended, and of those past due: what an outage of
    ours kept the webhook from telling. Answers how many were compared."""
    now = now or timezone.now()
    due = now - timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS)
    unheard = Q(status=Membership.Status.ACTIVE, period_end__lt=due) | Q(status=Membership.Status.PAST_DUE)
    subscriptions = list(
        Membership.objects.filter(unheard, stripe_subscription_id__isnull=False)
        .order_by("period_end")
        .values_list("stripe_subscription_id", flat=True)[:OVERDUE_BATCH]
    )
    for subscription_id in subscriptions:
        try:
            subscription_sync(subscription_id=cast(str, subscription_id), now=now)
        except gateway.PaymentProviderUnavailable as error:
            logger.warning("Subscription %s could not be compared with Stripe: %s", subscription_id, error)
    return len(subscriptions)


@task
def end_overdue_memberships() -> int:
    return memberships_end_overdue()


@task
def reconcile_memberships() -> int:
    return memberships_reconcile()
