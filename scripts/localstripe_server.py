"""localstripe (its command line: --port, --from-scratch), keeping what it knows in the file that
LOCALSTRIPE_STORE names, and paying with Stripe's test cards as Stripe's test mode does.

localstripe itself keeps its data in /tmp/localstripe.pickle, one file for every localstripe on the
machine: the tests run one per process side by side, and a test that restarts one must find its own
payments there, not another's.

Where localstripe's payments part from Stripe's test mode (https://docs.stripe.com/testing), they
follow Stripe here: each documented decline card is declined when it is charged, with Stripe's code
and message (localstripe declines most of them only when they are saved to a customer, and charges
them otherwise); and after a declined charge, the PaymentIntent takes another payment method and is
confirmed again (localstripe refuses every later confirmation, so no second card could pay)."""

import os
import pickle

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


_charging_is_declined_by_localstripe = resources.PaymentMethod._charging_is_declined
_set_auth_failure_by_localstripe = resources.Charge._set_auth_failure
_intent_status_by_localstripe = resources.PaymentIntent.status
_report_failure_by_localstripe = resources.PaymentIntent._report_failure

resources.Store.try_load_from_disk = _load
resources.Store.dump_to_disk = _save
resources.PaymentMethod._charging_is_declined = _charging_is_declined
resources.Charge._set_auth_failure = _set_auth_failure
resources.Charge._raise_failure = _raise_failure
resources.PaymentIntent.status = property(_intent_status)
resources.PaymentIntent._report_failure = _report_failure

if __name__ == "__main__":
    server.start()
