"""localstripe (its command line: --port, --from-scratch), keeping what it knows in the file that
LOCALSTRIPE_STORE names, and paying with Stripe's test cards as Stripe's test mode does.

localstripe itself keeps its data in /tmp/localstripe.pickle, one file for every localstripe on the
machine: the tests run one per process side by side, and a test that restarts one must find its own
payments there, not another's.

Where localstripe's payments part from Stripe's test mode (https://docs.stripe.com/testing), they
follow Stripe here: each documented decline card is declined when it is charged, with Stripe's code
and message (localstripe declines most of them only when they are saved to a customer, and charges
them otherwise); and after a declined charge, the PaymentIntent takes another payment method and is
confirmed again (localstripe refuses every later confirmation, so no second card could pay).

Invoices name their subscription in `parent` and their PaymentIntent in `payments`, as Stripe's API
does now (localstripe also keeps the fields it had before). Subscriptions are made as Stripe's
guide for card forms makes them (payment_behavior "default_incomplete", the card saved
"on_subscription"): the first invoice waits, with its PaymentIntent's secret in
`confirmation_secret`, for the person's card, which then pays the renewals.
localstripe has no clock: POST /_config/subscriptions/<id>/renew does what Stripe does when a period
ends (a test clock advanced): ends the subscription if it was to be cancelled at the period's end,
else invoices the next period and charges the card on file; with `fail=true`, as if that card were
declined."""

import os
import pickle
import time

from localstripe import resources, server

STORE = os.environ["LOCALSTRIPE_STORE"]

DECLINED = "Your card was declined."
# Stripe's test cards that are declined when charged: (error code, decline code, message).
DECLINES = {
    "4000000000000002": ("card_declined", "generic_decline", DECLINED),
    "4000000000009995": ("card_declined", "insufficient_funds", "Your card has insufficient funds."),
    "4000000000009987": ("card_declined", "lost_card", DECLINED),
    "4000000000009979": ("card_declined", "stolen_card", DECLINED),
    "4000000000000069": ("expired_card", "expired_card", "Your card has expired."),
    "4000000000000127": ("incorrect_cvc", "incorrect_cvc", "Your card's security code is incorrect."),
    "4000000000000119": (
        "processing_error",
        "processing_error",
        "An error occurred while processing your card. Try again in a little bit.",
    ),
    # Saved to a customer it is accepted; charged, it is declined.
    "4000000000000341": ("card_declined", "generic_decline", DECLINED),
}


def _load(store: resources.Store) -> None:
    try:
        with open(STORE, "rb") as kept:
            saved = pickle.load(kept)  # noqa: S301 - the file this process wrote
    except FileNotFoundError:
        return
    store.clear()
    store.update(saved)


def _save(store: resources.Store) -> None:
    with open(STORE, "wb") as kept:
        pickle.dump(store, kept, protocol=pickle.HIGHEST_PROTOCOL)


def _decline_of(method) -> tuple[str, str, str] | None:
    return DECLINES.get(getattr(method, "_card_number", ""))


def _charging_is_declined(method) -> bool:
    return _decline_of(method) is not None or _charging_is_declined_by_localstripe(method)


def _charge_decline(charge) -> tuple[str, str, str] | None:
    return _decline_of(resources.PaymentMethod._api_retrieve(charge.payment_method))


def _set_auth_failure(charge) -> None:
    """A declined charge, with the code and message Stripe gives for its card."""
    _set_auth_failure_by_localstripe(charge)
    if decline := _charge_decline(charge):
        charge.failure_code, _, charge.failure_message = decline


def _raise_failure(charge) -> None:
    """Stripe's answer to a declined charge: a card error, with the decline code."""
    details = {"code": charge.failure_code, "charge": charge.id}
    if decline := _charge_decline(charge):
        details["decline_code"] = decline[1]
    error = resources.UserError(402, charge.failure_message, details)
    error.body["error"]["type"] = "card_error"
    raise error


def _intent_status(intent) -> str:
    """As Stripe's: after a declined charge the intent needs a payment method, and once it has a new
    one it needs confirming, as at first."""
    if (
        not intent._canceled
        and intent.payment_method
        and not intent.next_action
        and intent.latest_charge is not None
        and intent.latest_charge is getattr(intent, "_declined_charge", None)
    ):
        return "requires_confirmation"
    return _intent_status_by_localstripe.fget(intent)


def _report_failure(intent) -> None:
    # Stripe lets go of the payment method that failed: the next confirmation needs one set again.
    intent._declined_charge = intent.latest_charge
    intent.payment_method = None
    _report_failure_by_localstripe(intent)


def _subscription_init(
    subscription, *args, payment_behavior="allow_incomplete", payment_settings=None, **data
):
    subscription._default_incomplete = payment_behavior == "default_incomplete"
    saved = (payment_settings or {}).get("save_default_payment_method")
    subscription._save_default_payment_method = saved == "on_subscription"
    if subscription._default_incomplete:
        payment_behavior = "allow_incomplete"
    _subscription_init_by_localstripe(subscription, *args, payment_behavior=payment_behavior, **data)


def _create_invoice(subscription) -> None:
    """The first invoice of a "default_incomplete" subscription waits for a card; any other is paid
    with the card on file, as localstripe does."""
    if not subscription._default_incomplete or subscription.latest_invoice:
        _create_invoice_by_localstripe(subscription)
        return
    invoice = resources.Invoice(
        customer=subscription.customer,
        subscription=subscription.id,
        items=list(subscription.items._list),
        date=subscription.current_period_start,
    )
    invoice._finalize()
    intent = resources.PaymentIntent(
        amount=invoice.total, currency=invoice.currency, customer=subscription.customer
    )
    intent.invoice = invoice.id
    invoice.payment_intent = intent.id


def _confirmation_secret(invoice):
    if invoice.payment_intent and invoice.status == "open":
        intent = resources.PaymentIntent._api_retrieve(invoice.payment_intent)
        return {"type": "payment_intent", "client_secret": intent.client_secret}
    return None


def _invoice_payments(invoice):
    """As Stripe's API gives them now: the payments of an invoice, each naming its PaymentIntent."""
    paid = [{"payment": {"type": "payment_intent", "payment_intent": invoice.payment_intent}}]
    return {"object": "list", "data": paid if invoice.payment_intent else [], "has_more": False}


def _intent_succeeded(intent) -> None:
    """A subscription's invoice paid by card: the card pays its renewals from now on."""
    _intent_succeeded_by_localstripe(intent)
    if not intent.invoice:
        return
    invoice = resources.Invoice._api_retrieve(intent.invoice)
    subscription = invoice.subscription and resources.Subscription._api_retrieve(invoice.subscription)
    if subscription and getattr(subscription, "_save_default_payment_method", False):
        customer = resources.Customer._api_retrieve(subscription.customer)
        customer.invoice_settings["default_payment_method"] = intent.payment_method
    resources.schedule_webhook(resources.Event("invoice.paid", invoice))


async def renew_subscription(request):
    subscription = resources.Subscription._api_retrieve(request.match_info["id"])
    data = await server.get_post_data(request) or {}
    if subscription.status == "canceled":
        raise resources.UserError(400, "This subscription has ended.")
    if subscription.cancel_at_period_end:
        resources.Subscription._api_delete(subscription.id)
        return server.json_response(subscription._export())
    customer = resources.Customer._api_retrieve(subscription.customer)
    if str(data.get("fail", "")).lower() == "true":
        declining = resources.PaymentMethod(
            type="card",
            card={"number": "4000000000000341", "exp_month": "12", "exp_year": "2040", "cvc": "123"},
        )
        declining.customer = customer.id
        customer.invoice_settings["default_payment_method"] = declining.id
    subscription.start_date = subscription.current_period_end
    invoice = resources.Invoice(
        customer=subscription.customer,
        subscription=subscription.id,
        items=list(subscription.items._list),
        date=int(time.time()),
    )
    invoice.billing_reason = "subscription_cycle"
    invoice._finalize()
    resources.Invoice._api_pay_invoice(invoice.id)
    if invoice.status != "paid":
        # As after any declined charge: the intent lets go of the card, to be paid with another.
        intent = resources.PaymentIntent._api_retrieve(invoice.payment_intent)
        intent._declined_charge = intent.latest_charge
        intent.payment_method = None
        invoice._on_payment_failure_now()
    return server.json_response(subscription._export())


_charging_is_declined_by_localstripe = resources.PaymentMethod._charging_is_declined
_set_auth_failure_by_localstripe = resources.Charge._set_auth_failure
_intent_status_by_localstripe = resources.PaymentIntent.status
_report_failure_by_localstripe = resources.PaymentIntent._report_failure
_subscription_init_by_localstripe = resources.Subscription.__init__
_create_invoice_by_localstripe = resources.Subscription._create_invoice
_intent_succeeded_by_localstripe = resources.PaymentIntent._on_success

resources.Store.try_load_from_disk = _load
resources.Store.dump_to_disk = _save
resources.PaymentMethod._charging_is_declined = _charging_is_declined
resources.Charge._set_auth_failure = _set_auth_failure
resources.Charge._raise_failure = _raise_failure
resources.PaymentIntent.status = property(_intent_status)
resources.PaymentIntent._report_failure = _report_failure
resources.PaymentIntent._on_success = _intent_succeeded
resources.Subscription.__init__ = _subscription_init
resources.Subscription._create_invoice = _create_invoice
resources.Invoice.confirmation_secret = property(_confirmation_secret)
resources.Invoice.payments = property(_invoice_payments)
server.app.router.add_post("/_config/subscriptions/{id}/renew", renew_subscription)

if __name__ == "__main__":
    server.start()
