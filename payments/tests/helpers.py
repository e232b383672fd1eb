"""What the payment tests do as a person would (ask for an intent, save a payment) and what they
ask Stripe (here localstripe) to see what really happened there."""

import threading

from django.db import connections
from django.test import Client

from payments import gateway


def intent(client: Client, booking, **fields):
    return client.post(
        "/api/create-payment-intent", {"bookingId": booking.pk, **fields}, content_type="application/json"
    )


def save(client: Client, client_secret: str):
    intent_id = client_secret.split("_secret_")[0]
    return client.post("/api/save-payment", {"paymentIntentId": intent_id}, content_type="application/json")


def stripe_intents(booking) -> list:
    """The PaymentIntents Stripe holds for `booking`, whatever our database says."""
    intents = gateway._client().v1.payment_intents.list(params={"limit": 100})
    return [i for i in intents.data if i.metadata.to_dict().get("booking_id") == str(booking.pk)]


def stripe_refunds(intent_id: str) -> list:
    return gateway._client().v1.refunds.list(params={"payment_intent": intent_id}).data


def at_once(calls: list) -> list:
    """Runs each call at the same moment, each in its own thread with its own database connection
    (as separate app processes would), and answers what each returned."""
    start = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(n: int, call) -> None:
        try:
            start.wait()
            answers[n] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def client_like(signed_in: Client) -> Client:
    """Another test client with the same session, for another thread."""
    client = Client()
    client.cookies.load({name: morsel.value for name, morsel in signed_in.cookies.items()})
    return client
